/**
 * The options of createHttpApp and serveHttp: unknown keys, missing fields and values out of
 * range are refused with a TypeError naming them, before anything starts.
 */
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { createEngine, createMemoryPartners } from '../../src/engine/entry.js';
import { createHttpApp, type HttpAppOptions, serveHttp } from '../../src/http/index.js';
import { TOKEN_SECRET } from './_harness.js';

const partners = createMemoryPartners([]);
const engine = createEngine({ partners });
const valid: HttpAppOptions = { engine, partners, tokenSecret: TOKEN_SECRET };
/** Options as a caller without types might pass them. */
const loosely = (options: Record<string, unknown>) => options as unknown as HttpAppOptions;

describe('createHttpApp options', () => {
  test('an unknown option or limit is a TypeError naming it and the nearest known one', () => {
    expect(() => createHttpApp(loosely({ ...valid, tokenTTL: 60 }))).toThrow(
      /createHttpApp options: unknown option 'tokenTTL'; did you mean 'tokenTtl'\?/,
    );
    expect(() => createHttpApp(loosely({ ...valid, limits: { batchItem: 10 } }))).toThrow(
      /createHttpApp options.limits: unknown option 'batchItem'; did you mean 'batchItems'\?/,
    );
    expect(() =>
      createHttpApp(loosely({ ...valid, limits: { tokenFailuresPerApplication: 10 } })),
    ).toThrow(TypeError);
  });

  test.each([
    ['engine', /engine is required/],
    ['partners', /partners is required/],
    ['tokenSecret', /tokenSecret is required/],
  ])('without %s: a TypeError naming it', (field, message) => {
    const { [field as keyof HttpAppOptions]: _, ...rest } = valid;
    expect(() => createHttpApp(loosely(rest))).toThrow(TypeError);
    expect(() => createHttpApp(loosely(rest))).toThrow(message);
  });

  test('no options at all, or an engine that is not one, is a TypeError', () => {
    expect(() => createHttpApp(undefined as unknown as HttpAppOptions)).toThrow(TypeError);
    expect(() => createHttpApp(loosely({ ...valid, engine: {} }))).toThrow(
      /engine must be a CashbackEngine/,
    );
    expect(() => createHttpApp(loosely({ ...valid, limits: { nestingDepth: 0 } }))).toThrow(
      /limits.nestingDepth must be a whole number of at least 1/,
    );
  });
});

describe('serveHttp options', () => {
  const app = createHttpApp(valid);

  test('a port that is not a whole number from 0 to 65535 is a TypeError, not a unix socket', async () => {
    for (const port of ['abc', '8080', -1, 65536, 1.5, Number.NaN]) {
      await expect(
        serveHttp(app, { port: port as number, host: '127.0.0.1' }),
        String(port),
      ).rejects.toThrow(/serveHttp options: port must be a whole number from 0 to 65535/);
    }
  });

  test('unknown options and bad limits are TypeErrors', async () => {
    await expect(
      serveHttp(app, { prot: 0 } as unknown as Parameters<typeof serveHttp>[1]),
    ).rejects.toThrow(/unknown option 'prot'; did you mean 'port'\?/);
    await expect(serveHttp(app, { port: 0, maxConnectionsPerAddress: 0 })).rejects.toThrow(
      /maxConnectionsPerAddress/,
    );
    await expect(
      serveHttp(app, { port: 0, headersTimeoutMs: 20_000, requestTimeoutMs: 10_000 }),
    ).rejects.toThrow(/requestTimeoutMs \(10000\) must be at least headersTimeoutMs \(20000\)/);
  });

  test('valid options start a server', async () => {
    const server = await serveHttp(app, {
      port: 0,
      host: '127.0.0.1',
      maxConnectionsPerAddress: 8,
      headersTimeoutMs: 5000,
      requestTimeoutMs: 5000,
      shutdownTimeoutMs: 1000,
    });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await server.close();
  });

  test('a client that stops sending its headers, or its body, is answered 408 and let go', async () => {
    // An app that reads every body to its end before answering.
    const echo = { fetch: async (request: Request) => new Response(await request.text()) };
    const server = await serveHttp(echo, {
      port: 0,
      host: '127.0.0.1',
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
    });
    /** Sends `text`, then nothing more; resolves with what came back once the server closed. */
    const stall = (text: string) =>
      new Promise<string>((done, fail) => {
        const socket = connect(server.port, '127.0.0.1');
        let received = '';
        socket.setEncoding('utf8').on('data', (d: string) => {
          received += d;
        });
        socket.on('error', fail);
        socket.on('close', () => done(received));
        socket.write(text);
      });
    try {
      const [headers, body] = await Promise.all([
        stall('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
        stall(
          'POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-length: 100\r\n\r\n[{"customer_id":',
        ),
      ]);
      expect(headers).toMatch(/^HTTP\/1\.1 408 /);
      expect(body).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await server.close();
    }
  });
});
