import type { webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import { KEY_CLAIM } from './keyFingerprint.js';

/** Clock tolerance of token checks, in seconds. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** How many verified tokens are remembered; the oldest is forgotten past it. */
const REMEMBERED = 10_000;

/** What is kept of a token that passed: its subject, key fingerprint and expiry (seconds). */
interface Passed {
  readonly sub: string;
  readonly kfp: string;
  readonly exp: number;
}

/** Who a valid token was issued to, and under which key. */
export interface TokenSubject {
  /** The application id. */
  readonly sub: string;
  /** The fingerprint of the key hash it was issued under (`keyFingerprint`). */
  readonly kfp: string;
}

/**
 * Verifies tokens with jose (HS256 pinned, `exp`, `sub` and the key claim `kfp` required) and remembers the ones that
 * passed, so that the next request with the same token only has its expiry checked again.
 *
 * Why by hand: `jwtVerify` (its WebCrypto HMAC) is a large share of a cheap request
 * (docs/benchmarks.md, "Where an HTTP request's time goes"), and a partner sends one token for up
 * to `tokenTtl` seconds. A remembered token is the exact string jose accepted; tokens with `nbf` are not kept.
 */
export class TokenVerifier {
  readonly #key: Promise<webcrypto.CryptoKey>;
  readonly #clock: () => Date;
  readonly #passed = new Map<string, Passed>();

  /**
   * @param key - the HMAC key
   * @param clock - the time tokens are checked at
   */
  constructor(key: Promise<webcrypto.CryptoKey>, clock: () => Date) {
    this.#key = key;
    this.#clock = clock;
  }

  /** The token's subject and key fingerprint when it is valid now, else `undefined`. */
  async subject(token: string): Promise<TokenSubject | undefined> {
    const now = this.#clock();
    const passed = this.#passed.get(token);
    if (passed !== undefined) {
      // jose's own rule: expired when exp <= now - tolerance, in whole seconds.
      if (passed.exp > Math.floor(now.getTime() / 1000) - CLOCK_TOLERANCE_SECONDS) {
        return passed;
      }
      this.#passed.delete(token);
      return undefined;
    }
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, await this.#key, {
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'sub', KEY_CLAIM],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: now,
      }));
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return undefined;
      throw err;
    }
    const { sub, exp, nbf, [KEY_CLAIM]: kfp } = payload;
    if (typeof sub !== 'string' || typeof exp !== 'number' || typeof kfp !== 'string') {
      return undefined;
    }
    if (nbf === undefined) {
      if (this.#passed.size >= REMEMBERED) {
        this.#passed.delete(this.#passed.keys().next().value as string);
      }
      this.#passed.set(token, { sub, kfp, exp });
    }
    return { sub, kfp };
  }
}
