import { createHmac, randomBytes } from 'node:crypto';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { PartnerRegistry } from '../engine/partners.js';
import { verifyApplicationKey } from './credentials.js';
import type { ResolvedLimits } from './options.js';

/** How long a key checked right is remembered, in ms. */
const REMEMBER_MS = 10 * 60 * 1000;

/** How many keys checked right are remembered at most; the oldest is forgotten past it. */
const REMEMBERED = 1000;

/** The outcome of a token request's credentials. */
export type KeyCheck =
  | { readonly kind: 'ok' }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'rate_limited'; readonly seconds: number }
  | { readonly kind: 'busy'; readonly seconds: number };

/** A key checked right: the hash it matched and until when it is trusted. */
interface Remembered {
  readonly hash: string;
  readonly until: number;
}

/**
 * Checks application keys at `/get-token` the way rate-limiter-flexible's guide protects login
 * endpoints: every request counts toward its address's request limit; wrong keys count in a row
 * per (application id, client address), reset by the right key, and in total per address over a
 * longer window. Failures from one address never refuse the right key from another.
 *
 * Keys checked right are remembered for ten minutes (at most 1,000 of them) under an HMAC with a
 * key drawn at random for this process, never the key itself, together with the stored hash they
 * matched: the right key then needs no scrypt run, so it never waits behind wrong ones, and a
 * changed hash is checked again. At most `keyChecksInFlight` scrypt runs are in progress; past
 * that a request is refused `busy` at once instead of queuing.
 */
export class KeyChecks {
  readonly #partners: PartnerRegistry;
  readonly #maxInFlight: number;
  readonly #requests: RateLimiterMemory;
  readonly #pairFailures: RateLimiterMemory;
  readonly #addressFailures: RateLimiterMemory;
  readonly #secret = randomBytes(32);
  readonly #remembered = new Map<string, Remembered>();
  #inFlight = 0;

  /**
   * @param partners - the registry with each partner's `application_key_hash`
   * @param limits - the app's limits
   */
  constructor(partners: PartnerRegistry, limits: ResolvedLimits) {
    this.#partners = partners;
    this.#maxInFlight = limits.keyChecksInFlight;
    this.#requests = new RateLimiterMemory({
      points: limits.tokenRequestsPerAddress,
      duration: limits.tokenWindowSeconds,
    });
    this.#pairFailures = new RateLimiterMemory({
      points: limits.tokenFailuresPerApplicationAndAddress,
      duration: limits.tokenFailureWindowSeconds,
    });
    this.#addressFailures = new RateLimiterMemory({
      points: limits.tokenFailuresPerAddress,
      duration: limits.tokenFailureWindowSeconds,
    });
  }

  /**
   * Whether `key` is the application id's key, asked from `address`.
   * @param id - the `applicationId` header, if any
   * @param key - the `applicationKey` header, if any
   * @param address - the client address
   * @returns ok, invalid, or refused (rate-limited or busy) with the seconds to wait
   */
  async check(id: string | undefined, key: string | undefined, address: string): Promise<KeyCheck> {
    const request = await consume(this.#requests, `address:${address}`);
    if (request !== undefined) return request;
    if (!id || !key) return { kind: 'invalid' };
    const partner = await this.#partners.get(id);
    const stored = partner?.application_key_hash;
    const digest = createHmac('sha256', this.#secret).update(`${id}\n${key}`).digest('base64url');
    const known = this.#remembered.get(digest);
    if (known !== undefined && stored === known.hash && known.until > performance.now()) {
      return { kind: 'ok' };
    }
    if (this.#inFlight >= this.#maxInFlight) return { kind: 'busy', seconds: 1 };
    this.#inFlight++;
    try {
      // A point of both failure counts is taken before the key is checked, so concurrent guesses
      // cannot all slip past them, and given back when the key is right.
      const pair = `pair:${id}\n${address}`;
      const refused =
        (await consume(this.#pairFailures, pair)) ??
        (await consume(this.#addressFailures, `address:${address}`, pair, this.#pairFailures));
      if (refused !== undefined) return refused;
      if (!(await verifyApplicationKey(key, stored))) return { kind: 'invalid' };
      await this.#pairFailures.delete(pair);
      await this.#addressFailures.reward(`address:${address}`, 1);
      this.#remember(digest, stored as string);
      return { kind: 'ok' };
    } finally {
      this.#inFlight--;
    }
  }

  #remember(digest: string, hash: string): void {
    this.#remembered.delete(digest);
    if (this.#remembered.size >= REMEMBERED) {
      this.#remembered.delete(this.#remembered.keys().next().value as string);
    }
    this.#remembered.set(digest, { hash, until: performance.now() + REMEMBER_MS });
  }
}

/**
 * Takes a point of `limiter` for `name`; when none is left, the refusal (and the point of
 * `undo` for `undoName`, taken just before, is given back).
 */
async function consume(
  limiter: RateLimiterMemory,
  name: string,
  undoName?: string,
  undo?: RateLimiterMemory,
): Promise<KeyCheck | undefined> {
  try {
    await limiter.consume(name);
    return undefined;
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw res;
    if (undo !== undefined && undoName !== undefined) await undo.reward(undoName, 1);
    return { kind: 'rate_limited', seconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
  }
}
