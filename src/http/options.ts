import { availableParallelism } from 'node:os';
import type { Context } from 'hono';
import type { CashbackEngine } from '../engine/createEngine.js';
import type { PartnerRegistry } from '../engine/partners.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { wholeNumber } from '../model/wholeNumber.js';

/**
 * Where request logs go: any logger with pino's `info` / `error` signature (a pino logger fits).
 * Each request logs one line with its id, method, path (never the query string), status,
 * duration and partner, and for a token request that got no token the application id it asked
 * for; never a key, token, other header or body.
 * @public
 */
export interface HttpLogger {
  /** One finished request. */
  info(fields: Record<string, unknown>, message?: string): void;
  /** A request that failed inside the server (answered 500). */
  error(fields: Record<string, unknown>, message?: string): void;
}

/** Request limits of the partner API; every field is optional. @public */
export interface HttpLimits {
  /**
   * Largest request body in bytes, chunked bodies included; a larger one is answered 413.
   * @defaultValue 5 MiB (`5 * 1024 * 1024`)
   */
  readonly bodyBytes?: number;
  /**
   * Most items in one POST body; a longer array is answered 413 as soon as the item past the
   * limit is reached, before the rest of the body is parsed.
   * @defaultValue `1000`
   */
  readonly batchItems?: number;
  /**
   * Most levels of arrays and objects in a body, the body's own array being level 1; a body that
   * nests deeper is answered 413 (`nesting_too_deep`) before anything of it is parsed.
   * @defaultValue `32`
   */
  readonly nestingDepth?: number;
  /**
   * Wrong keys in a row allowed for one application id from one client address within
   * `tokenFailureWindowSeconds`; past them, token requests of that pair are answered 429 until
   * the window ends, the right key included. The right key resets the count. Other addresses are
   * never affected.
   * @defaultValue `10`
   */
  readonly tokenFailuresPerApplicationAndAddress?: number;
  /**
   * Wrong keys (or unknown application ids) allowed per client address within
   * `tokenFailureWindowSeconds`, whatever the application id; past them, token requests from the
   * address are answered 429 until the window ends, the right key included.
   * @defaultValue `100`
   */
  readonly tokenFailuresPerAddress?: number;
  /**
   * Length of the window of the two failure counts, in seconds. The counts live in memory, one
   * entry per address (and per application id and address) until its window ends: a longer
   * window remembers more addresses.
   * @defaultValue `3600` (one hour)
   */
  readonly tokenFailureWindowSeconds?: number;
  /**
   * Refused token requests (wrong keys, unknown application ids) allowed per client address per
   * `tokenWindowSeconds`; past them, token requests from the address are answered 429 until the
   * window ends, the right key included. A request with the right key is not counted, so a
   * partner's instances behind one address all get their tokens.
   * @defaultValue `30`
   */
  readonly tokenRequestsPerAddress?: number;
  /**
   * Length of the window of `tokenRequestsPerAddress`, in seconds.
   * @defaultValue `60`
   */
  readonly tokenWindowSeconds?: number;
  /**
   * Key checks (scrypt runs) in progress at once; a token request that would start one more is
   * answered 503 (`busy`) with `Retry-After` instead of waiting. Keys checked before and
   * remembered need no scrypt run and are never refused for this.
   * scrypt runs on Node's thread pool and takes a core while it runs: with as many runs as
   * cores, the event loop (every other request, remembered keys included) waits for a core.
   * @defaultValue one less than the cores Node may use (`os.availableParallelism()`), at least 1
   * and at most 4 (the default size of Node's thread pool)
   */
  readonly keyChecksInFlight?: number;
}

/** Options of {@link createHttpApp}. @public */
export interface HttpAppOptions {
  /** The engine every route calls. */
  readonly engine: CashbackEngine;
  /**
   * Who may obtain tokens: a partner needs `application_key_hash` (see `hashApplicationKey`)
   * and an application id of at most 128 characters. It is asked on every request, so a partner
   * removed from it loses access at once, tokens already issued included, and a partner whose
   * `application_key_hash` changed has the tokens of its old key refused.
   */
  readonly partners: PartnerRegistry;
  /** Secret that signs tokens (HS256), at least 32 bytes; a string counts its UTF-8 bytes. */
  readonly tokenSecret: string | Uint8Array;
  /**
   * Token lifetime in seconds.
   * @defaultValue `3600`
   */
  readonly tokenTtl?: number;
  /** Body, batch, nesting, token-rate and key-check limits. */
  readonly limits?: HttpLimits;
  /**
   * Request log; none by default (the `cashback serve` command logs with pino).
   * @defaultValue no logging
   */
  readonly logger?: HttpLogger;
  /**
   * The time tokens are issued and checked at.
   * @defaultValue `() => new Date()`
   */
  readonly clock?: () => Date;
  /**
   * The client address that token requests are rate-limited by. Behind a proxy, read it from the
   * proxy's header here; the default never trusts a header.
   * @defaultValue the socket's remote address on Node (`@hono/node-server`), else `'unknown'`
   */
  readonly clientAddress?: (c: Context) => string | undefined;
}

/** Every limit, resolved. */
export type ResolvedLimits = { readonly [K in keyof HttpLimits]-?: number };

/** The options with every default applied and every value checked. */
export interface ResolvedOptions {
  readonly engine: CashbackEngine;
  readonly partners: PartnerRegistry;
  readonly secret: Uint8Array;
  readonly tokenTtl: number;
  readonly limits: ResolvedLimits;
  readonly logger: HttpLogger | undefined;
  readonly clock: () => Date;
  readonly clientAddress: (c: Context) => string | undefined;
}

const OPTION_KEYS = [
  'engine',
  'partners',
  'tokenSecret',
  'tokenTtl',
  'limits',
  'logger',
  'clock',
  'clientAddress',
] as const satisfies readonly (keyof HttpAppOptions)[];

/** Every limit and its default. */
const LIMIT_DEFAULTS: ResolvedLimits = {
  bodyBytes: 5 * 1024 * 1024,
  batchItems: 1000,
  nestingDepth: 32,
  tokenFailuresPerApplicationAndAddress: 10,
  tokenFailuresPerAddress: 100,
  tokenFailureWindowSeconds: 3600,
  tokenRequestsPerAddress: 30,
  tokenWindowSeconds: 60,
  keyChecksInFlight: Math.max(1, Math.min(4, availableParallelism() - 1)),
};

function positiveInteger(value: unknown, name: string, fallback: number): number {
  return value === undefined ? fallback : wholeNumber(value, name, { min: 1 });
}

function secretBytes(secret: unknown): Uint8Array {
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  if (!(bytes instanceof Uint8Array) || bytes.length < 32) {
    throw new TypeError('createHttpApp options: tokenSecret must be at least 32 bytes (HS256)');
  }
  return bytes;
}

/** Throws a TypeError naming `field` when `value` has no function `method`. */
function requireMethod(value: unknown, field: string, method: string, what: string): void {
  if (value === undefined || value === null) {
    throw new TypeError(`createHttpApp options: ${field} is required (${what})`);
  }
  if (typeof (value as Record<string, unknown>)[method] !== 'function') {
    throw new TypeError(`createHttpApp options: ${field} must be ${what}`);
  }
}

/** The socket address on @hono/node-server (its `env.incoming`), without importing it. */
function socketAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/** The names of the fields of {@link HttpLimits}. */
export const LIMIT_NAMES: readonly (keyof HttpLimits)[] = Object.keys(
  LIMIT_DEFAULTS,
) as (keyof HttpLimits)[];

/**
 * Checks the `limits` of `createHttpApp` and applies the defaults; `cashback serve` checks its
 * `--limit` flags with it before it opens anything.
 * @param given - the limits as given, or undefined
 * @returns every limit
 * @throws TypeError for an unknown limit, RangeError (or TypeError) for a limit that is not a
 *   whole number from 1
 */
export function resolveLimits(given: HttpLimits | undefined): ResolvedLimits {
  assertKnownKeys(given, LIMIT_NAMES, 'createHttpApp options.limits');
  return Object.fromEntries(
    Object.entries(LIMIT_DEFAULTS).map(([name, fallback]) => [
      name,
      positiveInteger(given?.[name as keyof HttpLimits], `limits.${name}`, fallback),
    ]),
  ) as unknown as ResolvedLimits;
}

/**
 * Checks the options of `createHttpApp` and applies the defaults.
 * @throws TypeError for an unknown key, a missing engine, registry or secret, or a bad limit
 */
export function resolveOptions(options: HttpAppOptions): ResolvedOptions {
  if (options === undefined) {
    throw new TypeError('createHttpApp options are required: engine, partners and tokenSecret');
  }
  assertKnownKeys(options, OPTION_KEYS, 'createHttpApp options');
  requireMethod(options.engine, 'engine', 'addTransactions', 'a CashbackEngine (createEngine)');
  requireMethod(options.partners, 'partners', 'get', 'a PartnerRegistry');
  if (options.tokenSecret === undefined) {
    throw new TypeError('createHttpApp options: tokenSecret is required (at least 32 bytes)');
  }
  const limits = resolveLimits(options.limits);
  for (const name of ['logger', 'clock', 'clientAddress'] as const) {
    const value = options[name];
    const ok =
      name === 'logger' ? typeof value === 'object' && value !== null : typeof value === 'function';
    if (value !== undefined && !ok) {
      throw new TypeError(
        `createHttpApp options: ${name} must be ${name === 'logger' ? 'a logger' : 'a function'}`,
      );
    }
  }
  return {
    engine: options.engine,
    partners: options.partners,
    secret: secretBytes(options.tokenSecret),
    tokenTtl: positiveInteger(options.tokenTtl, 'tokenTtl', 3600),
    limits,
    logger: options.logger,
    clock: options.clock ?? (() => new Date()),
    clientAddress: options.clientAddress ?? socketAddress,
  };
}
