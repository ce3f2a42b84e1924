import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { assertKnownKeys } from '../model/knownKeys.js';
import { wholeNumber } from '../model/wholeNumber.js';

/** Options of {@link serveHttp}. @public */
export interface ServeOptions {
  /**
   * TCP port; `0` picks a free one (read it from the result).
   * @defaultValue `8080`
   */
  readonly port?: number;
  /**
   * Address to listen on.
   * @defaultValue `'127.0.0.1'`
   */
  readonly host?: string;
  /**
   * How long `close()` lets requests in flight finish before it cuts their connections, in ms.
   * @defaultValue `10000`
   */
  readonly shutdownTimeoutMs?: number;
  /**
   * Most connections open at once from one client address; a connection past it is closed as
   * soon as it is accepted, so one address cannot use up the process's file descriptors.
   * @defaultValue `256`
   */
  readonly maxConnectionsPerAddress?: number;
  /**
   * How long a client may take to send a request's headers, in ms; past it the connection is
   * closed (Node answers 408 when it can).
   * @defaultValue `10000` (Node's own default is 60 s)
   */
  readonly headersTimeoutMs?: number;
  /**
   * How long a client may take to send a whole request, body included, in ms; past it the
   * connection is closed (Node answers 408 when it can). At least `headersTimeoutMs`.
   * @defaultValue `30000` (Node's own default is 300 s)
   */
  readonly requestTimeoutMs?: number;
}

const SERVE_KEYS = [
  'port',
  'host',
  'shutdownTimeoutMs',
  'maxConnectionsPerAddress',
  'headersTimeoutMs',
  'requestTimeoutMs',
] as const satisfies readonly (keyof ServeOptions)[];

/** How often Node checks the header and request timeouts of open connections, in ms. */
const TIMEOUT_CHECK_MS = 1000;

/** A whole-number option of `serveHttp`, or its default when left out. */
function option(
  value: unknown,
  name: string,
  fallback: number,
  range: { readonly min?: number; readonly max?: number },
): number {
  return value === undefined ? fallback : wholeNumber(value, `serveHttp options: ${name}`, range);
}

/** A server started by {@link serveHttp}. @public */
export interface RunningServer {
  /** Base address, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** The address listened on. */
  readonly host: string;
  /**
   * Stops accepting connections, lets requests in flight finish (each is answered in full, with
   * `Connection: close`), closes idle keep-alive connections, cuts what remains after
   * `shutdownTimeoutMs`, and resolves when the server is closed. Calling it again
   * returns the same promise.
   */
  close(): Promise<void>;
}

/** The options of {@link serveHttp}, checked, with the defaults applied. */
interface ResolvedServeOptions {
  readonly host: string;
  readonly port: number;
  readonly shutdownTimeoutMs: number;
  readonly maxConnectionsPerAddress: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/**
 * Checks the options of {@link serveHttp} and applies the defaults; `cashback serve` checks its
 * `--limit` flags with it before it opens anything.
 * @param options - as given
 * @returns every option
 * @throws TypeError for an unknown option or a bad host, RangeError (or TypeError) for a number
 *   out of range or not a whole number
 */
export function resolveServeOptions(options: ServeOptions): ResolvedServeOptions {
  assertKnownKeys(options, SERVE_KEYS, 'serveHttp options');
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '') {
    throw new TypeError(`serveHttp options: host must be a non-empty string, got ${String(host)}`);
  }
  const MS = 2 ** 31 - 1; // the longest timer Node keeps
  const resolved = {
    host,
    port: option(options.port, 'port', 8080, { max: 65535 }),
    shutdownTimeoutMs: option(options.shutdownTimeoutMs, 'shutdownTimeoutMs', 10_000, { max: MS }),
    maxConnectionsPerAddress: option(
      options.maxConnectionsPerAddress,
      'maxConnectionsPerAddress',
      256,
      { min: 1 },
    ),
    headersTimeoutMs: option(options.headersTimeoutMs, 'headersTimeoutMs', 10_000, {
      min: 1,
      max: MS,
    }),
    requestTimeoutMs: option(options.requestTimeoutMs, 'requestTimeoutMs', 30_000, {
      min: 1,
      max: MS,
    }),
  };
  if (resolved.requestTimeoutMs < resolved.headersTimeoutMs) {
    throw new TypeError(
      `serveHttp options: requestTimeoutMs (${resolved.requestTimeoutMs}) must be at least headersTimeoutMs (${resolved.headersTimeoutMs})`,
    );
  }
  return resolved;
}

/**
 * Starts an app (anything with a `fetch` handler, such as `createHttpApp`'s) on Node's HTTP
 * server, on 127.0.0.1:8080 unless told otherwise, with limits on connections per client
 * address and on the time a request may take to arrive.
 * @param app - the app
 * @param options - port, host, shutdown timeout, connection and timeout limits
 * @returns the running server, once it listens
 * @throws TypeError for an unknown option or a value out of range (a port that is not a whole
 * number from 0 to 65535, …); the listen error (such as `EADDRINUSE`) when the port is taken
 * @example
 * ```ts
 * const server = await serveHttp(app, { port: 0, host: '127.0.0.1' });
 * console.log(server.url);
 * await server.close();
 * ```
 * @public
 */
export async function serveHttp(
  app: { fetch: (request: Request, env: never) => Response | Promise<Response> },
  options: ServeOptions = {},
): Promise<RunningServer> {
  const resolved = resolveServeOptions(options);
  if (typeof app?.fetch !== 'function') {
    throw new TypeError('serveHttp: app must have a fetch handler (such as createHttpApp’s)');
  }
  const { host, port, shutdownTimeoutMs: timeout, maxConnectionsPerAddress: perAddress } = resolved;
  const { headersTimeoutMs: headersTimeout, requestTimeoutMs: requestTimeout } = resolved;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch as (request: Request) => Response | Promise<Response>,
        port,
        hostname: host,
        serverOptions: {
          headersTimeout,
          requestTimeout,
          connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, headersTimeout),
        },
      },
      () => resolve(s as Server),
    ) as Server;
    s.once('error', reject);
    limitConnections(s, perAddress);
  });
  const listening = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  // Answers sent once closing has begun carry `Connection: close`, so a client opens a new
  // connection (refused) for its next request instead of reusing a kept-alive one. Without it a
  // client that sends without pause keeps its connection busy: it never goes idle, the server
  // keeps answering on it, and the timeout finally cuts it, request and all.
  const open = new Set<ServerResponse>();
  const noKeepAlive = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (closing !== undefined) noKeepAlive(res);
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${listening}`,
    port: listening,
    host,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const res of open) noKeepAlive(res);
        server.close((err) => (err ? reject(err) : resolve()));
        // A keep-alive connection goes idle once its response is sent: close it then.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        const cut = setTimeout(() => server.closeAllConnections(), timeout);
        server.once('close', () => {
          clearInterval(sweep);
          clearTimeout(cut);
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

/**
 * Closes each connection accepted while its client address already has `max` open: one address
 * cannot hold enough idle or slow connections to use up the file descriptors, and every other
 * address is still served.
 */
function limitConnections(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
