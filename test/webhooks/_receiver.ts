/** A real webhook receiver on 127.0.0.1 for the dispatcher's tests: it records every request. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got. */
interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How to answer the n-th request (from 1): a status, headers, and a delay before answering. */
export type Answer = (
  n: number,
  got: Received,
) => {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly delayMs?: number;
};

/** A running receiver. */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** Changes how it answers from now on. */
  answer(fn: Answer): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (a given port, or a free one) that answers 200 unless told. */
export async function startReceiver(
  answer: Answer = () => ({ status: 200 }),
  port = 0,
): Promise<Receiver> {
  let current = answer;
  const received: Received[] = [];
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const got = { headers: req.headers, body };
    received.push(got);
    const a = current(received.length, got);
    const reply = () => res.writeHead(a.status, a.headers ?? {}).end();
    if (a.delayMs === undefined) reply();
    else setTimeout(reply, a.delayMs).unref();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    received,
    answer: (fn) => {
      current = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
