import { createHash, createHmac, randomBytes } from 'node:crypto';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { PartnerRegistry } from '../engine/partners.js';
import { MAX_ID_LENGTH } from '../model/itemKey.js';
import { verifyApplicationKey } from './credentials.js';
import type { ResolvedLimits } from './options.js';

/** How long a key checked right is remembered, in ms. */
const REMEMBER_MS = 10 * 60 * 1000;

/** How many keys checked right are remembered at most; the oldest is forgotten past it. */
const REMEMBERED = 1000;

/** Longest client address used as a limiter key as it is; a longer one is keyed by its digest. */
const MAX_ADDRESS_KEY = 64;

/** The outcome of a token request's credentials. */
export type KeyCheck =
  | { readonly kind: 'ok'; readonly hash: string }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'rate_limited'; readonly seconds: number }
  | { readonly kind: 'busy'; readonly seconds: number };

/** A key checked right: the hash it matched and until when it is trusted. */
interface Remembered {
  readonly hash: string;
  readonly until: number;
}

/**
 * One key derivation in progress, shared by every request with the same id, key and stored
 * hash: `verified` is its answer, or undefined when the request that started it was refused by a
 * limit before the key was checked.
 */
interface Flight {
  readonly owner: KeyCheck;
  readonly verified: boolean | undefined;
}

/** The limiter keys of one request: its address's, and its (application id, address) pair's. */
interface Keys {
  readonly address: string;
  readonly pair: string;
}

/** A short digest: limiter entries never hold what a client sent at full length. */
const digest = (text: string): string =>
  createHash('sha256').update(text).digest('base64url').slice(0, 22);

/**
 * Checks application keys at `/get-token` the way rate-limiter-flexible's guide protects login
 * endpoints, counting refused attempts only (docs/http.md, "Security"): a wrong key or an unknown
 * application id counts toward its address's short window (`tokenRequestsPerAddress`), toward
 * its address's failure window, and in a row toward its (application id, client address) pair,
 * whose count the right key resets. A request with the right key counts toward nothing, so a
 * partner's instances behind one address all get their tokens. Once a count is reached, every
 * token request it covers is refused before anything else is done, the right key included: a
 * remembered right key answered while wrong ones got 429 would let guessing go on without bound.
 * Failures from one address never refuse the right key from another.
 *
 * The state stays bounded (docs/http.md, "Security"): an application id longer than any valid
 * one is refused before anything is kept; limiter entries are keyed by the address (or its
 * digest) and a 22-character digest of the pair; the address's own failure counts are taken
 * before a pair entry is made, so one address holds at most `tokenFailuresPerAddress` pair
 * entries.
 *
 * Keys checked right are remembered for ten minutes (at most 1,000 of them) under an HMAC with a
 * key drawn at random for this process, never the key itself, together with the stored hash they
 * matched: the right key then needs no scrypt run, and a changed hash is checked again. Checks of
 * the same id, key and hash in progress at once run scrypt once and share its answer. At most
 * `keyChecksInFlight` distinct scrypt runs are in progress; past that a request is refused `busy`
 * at once instead of queuing.
 */
export class KeyChecks {
  readonly #partners: PartnerRegistry;
  readonly #maxInFlight: number;
  /** Refused attempts per address over the short window (`tokenRequestsPerAddress`). */
  readonly #recentFailures: RateLimiterMemory;
  readonly #pairFailures: RateLimiterMemory;
  readonly #addressFailures: RateLimiterMemory;
  readonly #secret = randomBytes(32);
  readonly #remembered = new Map<string, Remembered>();
  readonly #flights = new Map<string, Promise<Flight>>();

  /**
   * @param partners - the registry with each partner's `application_key_hash`
   * @param limits - the app's limits
   */
  constructor(partners: PartnerRegistry, limits: ResolvedLimits) {
    this.#partners = partners;
    this.#maxInFlight = limits.keyChecksInFlight;
    this.#recentFailures = new RateLimiterMemory({
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
   * @returns ok with the hash the key matched, invalid, or refused (rate-limited or busy) with
   *   the seconds to wait
   */
  async check(id: string | undefined, key: string | undefined, address: string): Promise<KeyCheck> {
    if (!id || !key || id.length > MAX_ID_LENGTH) return { kind: 'invalid' };
    const keys: Keys = {
      address: address.length > MAX_ADDRESS_KEY ? digest(address) : address,
      pair: digest(`${id}\n${address}`),
    };
    const reached = await this.#reached(keys);
    if (reached !== undefined) return reached;
    const stored = (await this.#partners.get(id))?.application_key_hash;
    const remembered = createHmac('sha256', this.#secret)
      .update(`${id}\n${key}`)
      .digest('base64url');
    const known = this.#remembered.get(remembered);
    if (known !== undefined && stored === known.hash && known.until > performance.now()) {
      await this.#pairFailures.delete(keys.pair);
      return { kind: 'ok', hash: known.hash };
    }
    const name = `${remembered}\n${stored ?? ''}`;
    const running = this.#flights.get(name);
    if (running !== undefined) return this.#join(await running, keys, stored);
    if (this.#flights.size >= this.#maxInFlight) return { kind: 'busy', seconds: 1 };
    // Registered before the first await of #derive: an identical request that comes next joins.
    const flight = this.#derive(key, stored, keys, remembered);
    this.#flights.set(name, flight);
    try {
      return (await flight).owner;
    } finally {
      this.#flights.delete(name);
    }
  }

  /**
   * How many entries the limits and caches hold now (every limiter key, remembered key and check
   * in progress): what token requests cost in memory, for the tests.
   * @returns the number of entries
   */
  heldEntries(): number {
    const size = (limiter: RateLimiterMemory) =>
      (limiter as unknown as { _memoryStorage: { _storage: Map<string, unknown> } })._memoryStorage
        ._storage.size;
    return (
      size(this.#recentFailures) +
      size(this.#pairFailures) +
      size(this.#addressFailures) +
      this.#remembered.size +
      this.#flights.size
    );
  }

  /**
   * The refusal when a count that covers this request has no point left, without taking one: a
   * request refused here is neither checked nor counted (counting it would not make its window
   * end later).
   */
  async #reached(keys: Keys): Promise<KeyCheck | undefined> {
    for (const [limiter, name] of this.#counts(keys)) {
      const res = await limiter.get(name);
      if (res !== null && res.msBeforeNext > 0 && res.consumedPoints >= limiter.points) {
        return rateLimited(res);
      }
    }
    return undefined;
  }

  /** The counts a refused attempt takes a point of, the address's before the pair's. */
  #counts(keys: Keys): readonly (readonly [RateLimiterMemory, string])[] {
    return [
      [this.#recentFailures, keys.address],
      [this.#addressFailures, keys.address],
      [this.#pairFailures, keys.pair],
    ];
  }

  /**
   * The scrypt run of a check, after a point of every failure count is taken, so that
   * concurrent guesses cannot all slip past them; the points are given back when the key is
   * right.
   */
  async #derive(
    key: string,
    stored: string | undefined,
    keys: Keys,
    remembered: string,
  ): Promise<Flight> {
    const refused = await this.#takeFailurePoints(keys);
    if (refused !== undefined) return { owner: refused, verified: undefined };
    if (!(await verifyApplicationKey(key, stored))) {
      return { owner: { kind: 'invalid' }, verified: false };
    }
    await this.#pairFailures.delete(keys.pair);
    await this.#addressFailures.reward(keys.address, 1);
    await this.#recentFailures.reward(keys.address, 1);
    this.#remember(remembered, stored as string);
    return { owner: { kind: 'ok', hash: stored as string }, verified: true };
  }

  /**
   * The answer of a request that joined another's check: it took no point before (an identical
   * request costs no scrypt run), so its failure is counted once the key is known wrong.
   */
  async #join(flight: Flight, keys: Keys, stored: string | undefined): Promise<KeyCheck> {
    if (flight.verified === true) {
      await this.#pairFailures.delete(keys.pair);
      return { kind: 'ok', hash: stored as string };
    }
    // The check it joined was refused before the key was checked: nothing is known of the key.
    if (flight.verified === undefined) return { kind: 'busy', seconds: 1 };
    return (await this.#takeFailurePoints(keys)) ?? { kind: 'invalid' };
  }

  /**
   * A point of each failure count in turn; when one has none left, its refusal, and the points
   * taken just before are given back.
   */
  async #takeFailurePoints(keys: Keys): Promise<KeyCheck | undefined> {
    const taken: (readonly [RateLimiterMemory, string])[] = [];
    for (const [limiter, name] of this.#counts(keys)) {
      try {
        await limiter.consume(name);
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        for (const [done, doneName] of taken) await done.reward(doneName, 1);
        return rateLimited(res);
      }
      taken.push([limiter, name]);
    }
    return undefined;
  }

  #remember(digestOfKey: string, hash: string): void {
    this.#remembered.delete(digestOfKey);
    if (this.#remembered.size >= REMEMBERED) {
      this.#remembered.delete(this.#remembered.keys().next().value as string);
    }
    this.#remembered.set(digestOfKey, { hash, until: performance.now() + REMEMBER_MS });
  }
}

/** A refusal by a limiter, with the whole seconds until its window ends (at least 1). */
function rateLimited(res: RateLimiterRes): KeyCheck {
  return { kind: 'rate_limited', seconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}
