import type { IncomingMessage } from 'node:http';
import { InvalidArgumentError } from 'commander';
import type { Context } from 'hono';
import proxyAddr from 'proxy-addr';
import type { HttpLimits, ServeOptions } from '../http/index.js';
import { LIMIT_NAMES, resolveLimits } from '../http/options.js';
import { resolveServeOptions } from '../http/serve.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { UsageError } from './inputs.js';

/** The options of `serveHttp` that `--limit` sets beside the app's {@link HttpLimits}. */
const SERVER_LIMIT_NAMES = [
  'maxConnectionsPerAddress',
  'headersTimeoutMs',
  'requestTimeoutMs',
  'shutdownTimeoutMs',
] as const satisfies readonly (keyof ServeOptions)[];

/** Every name `--limit` takes. */
const ALL_LIMIT_NAMES: readonly string[] = [...LIMIT_NAMES, ...SERVER_LIMIT_NAMES];

/** The limits of `cashback serve`: the app's and the server's. */
export interface ServeLimits {
  /** `createHttpApp`'s `limits`. */
  readonly app: HttpLimits;
  /** `serveHttp`'s connection, timeout and shutdown options. */
  readonly server: Pick<ServeOptions, (typeof SERVER_LIMIT_NAMES)[number]>;
}

/**
 * commander's parser of one `--limit name=value`, gathering the flags given into one record.
 * @param value - `name=value`, the value a whole number
 * @param previous - the flags parsed before it
 * @returns the flags so far
 * @throws InvalidArgumentError for another shape, an unknown name (naming the nearest), or a name
 *   given twice
 */
export function parseLimit(
  value: string,
  previous: Readonly<Record<string, number>> = {},
): Record<string, number> {
  const match = /^([A-Za-z]+)=([0-9]{1,15})$/.exec(value.trim());
  if (match === null) {
    throw new InvalidArgumentError(
      'Give name=value with a whole number, for example bodyBytes=10485760.',
    );
  }
  const [, name = '', n = ''] = match;
  try {
    assertKnownKeys({ [name]: 0 }, ALL_LIMIT_NAMES, 'limits', 'limit');
  } catch (err) {
    throw new InvalidArgumentError(`${(err as Error).message.replace(/^limits: u/, 'U')}.`);
  }
  if (name in previous) throw new InvalidArgumentError(`${name} is given twice.`);
  return { ...previous, [name]: Number(n) };
}

/**
 * Splits the `--limit` flags into the app's and the server's, and checks their values with the
 * checks of `createHttpApp` and `serveHttp` themselves, before anything is opened.
 * @param given - the parsed flags
 * @returns the limits to pass on
 * @throws UsageError for a value out of range, or a request timeout shorter than the header one
 */
export function checkServeLimits(given: Readonly<Record<string, number>>): ServeLimits {
  const app: Record<string, number> = {};
  const server: Record<string, number> = {};
  for (const [name, value] of Object.entries(given)) {
    ((SERVER_LIMIT_NAMES as readonly string[]).includes(name) ? server : app)[name] = value;
  }
  try {
    resolveLimits(app);
    resolveServeOptions(server);
  } catch (err) {
    const message = (err as Error).message.replace(/^(serveHttp options: |limits\.)/, '');
    throw new UsageError(`--limit ${message}`);
  }
  return { app, server };
}

/** The addresses of trusted proxies, as `proxy-addr` compiles them. */
export type TrustedProxies = (address: string, hop: number) => boolean;

/**
 * commander's parser of `--trust-proxy`: addresses, CIDR ranges and the names `loopback`,
 * `linklocal` and `uniquelocal`, separated by commas.
 * @param value - the flag's value
 * @returns whether an address is a trusted proxy
 * @throws InvalidArgumentError for an empty list or an entry that is not an address or range
 */
export function parseTrustProxy(value: string): TrustedProxies {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) {
    throw new InvalidArgumentError('Give addresses, ranges or loopback, linklocal, uniquelocal.');
  }
  try {
    return proxyAddr.compile(entries);
  } catch (err) {
    throw new InvalidArgumentError(`${(err as Error).message}.`);
  }
}

/**
 * The client address of a request behind trusted proxies: `X-Forwarded-For` read from the right,
 * past the trusted proxies, as Express's `trust proxy` does; the socket's address when the
 * request did not come through a trusted proxy.
 * @param trusted - the trusted proxies
 * @returns `createHttpApp`'s `clientAddress`
 */
export function clientAddressBehind(trusted: TrustedProxies): (c: Context) => string | undefined {
  return (c) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    return incoming === undefined ? undefined : proxyAddr(incoming, trusted);
  };
}
