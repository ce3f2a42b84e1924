import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

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

/**
 * Starts an app (anything with a `fetch` handler, such as `createHttpApp`'s) on Node's HTTP
 * server, on 127.0.0.1:8080 unless told otherwise.
 * @param app - the app
 * @param options - port, host, shutdown timeout
 * @returns the running server, once it listens
 * @public
 */
export async function serveHttp(
  app: { fetch: (request: Request, env: never) => Response | Promise<Response> },
  options: ServeOptions = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const timeout = options.shutdownTimeoutMs ?? 10_000;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch as (request: Request) => Response | Promise<Response>,
        port: options.port ?? 8080,
        hostname: host,
      },
      () => resolve(s as Server),
    ) as Server;
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
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
    url: `http://${urlHost}:${port}`,
    port,
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
