/**
 * The app embedded three ways: mounted under a path in a user's own Hono app served on
 * 127.0.0.1, inside a plain Node `http.Server` through @hono/node-server's request listener, and
 * called as a bare fetch handler with no server at all.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { mount } from 'hono/mount';
import { describe, expect, test } from 'vitest';
import { createEngine, createMemoryPartners } from '../../src/engine/entry.js';
import {
  createHttpApp,
  type HttpApp,
  hashApplicationKey,
  serveHttp,
} from '../../src/http/index.js';
import { customer } from '../fixtures.js';
import { TOKEN_SECRET } from './_harness.js';

/** A response's JSON body, for reading fields in assertions. */
// biome-ignore lint/suspicious/noExplicitAny: tests index into arbitrary JSON answers
const body = async (r: Response): Promise<any> => r.json();

async function app() {
  const partners = createMemoryPartners([
    { application_id: 'bank-a', application_key_hash: await hashApplicationKey('key-a') },
  ]);
  return createHttpApp({ engine: createEngine({ partners }), partners, tokenSecret: TOKEN_SECRET });
}

const credentials = { applicationId: 'bank-a', applicationKey: 'key-a' };

describe('embedding', () => {
  test.each([
    ['route', (parent: Hono, sub: HttpApp) => parent.route('/cashback', sub)],
    ['mount', (parent: Hono, sub: HttpApp) => parent.all('/cashback/*', mount(sub.fetch))],
  ])(
    'mounted under /cashback in a user Hono app with %s(): routes, auth and error bodies work there',
    async (how, attach) => {
      const parent = new Hono();
      parent.get('/', (c) => c.text('the bank'));
      attach(parent, await app());
      const server = await serveHttp(parent, { port: 0 });
      try {
        expect(await (await fetch(`${server.url}/`)).text()).toBe('the bank');
        const { Token } = await body(
          await fetch(`${server.url}/cashback/get-token`, { headers: credentials }),
        );
        const ok = await fetch(`${server.url}/cashback/customers/`, {
          method: 'POST',
          headers: { Token, 'content-type': 'application/json' },
          body: JSON.stringify([customer()]),
        });
        expect(await body(ok)).toEqual({ Added: 1, Updated: 0, Errors: {} });
        const bad = await fetch(`${server.url}/cashback/transactions`, {
          method: 'POST',
          headers: { Token, 'content-type': 'application/json' },
          body: '[',
        });
        expect(bad.status).toBe(400);
        expect((await body(bad)).error.code).toBe('invalid_json');
        const wrong = await fetch(`${server.url}/cashback/transactions`, { headers: { Token } });
        expect(wrong.status).toBe(405);
        // route() copies the app's routes and error handler, not its not-found handler: an unknown
        // path under /cashback is the parent's 404. mount() hands every request to the app.
        const unknown = await fetch(`${server.url}/cashback/nowhere`);
        expect(unknown.status).toBe(404);
        if (how === 'mount') {
          expect(await body(unknown)).toEqual({
            error: { code: 'not_found', message: 'No route GET /nowhere', details: [] },
          });
        } else {
          expect(await unknown.text()).toBe('404 Not Found');
        }
      } finally {
        await server.close();
      }
    },
  );

  test('in a plain Node http.Server through getRequestListener', async () => {
    const a = await app();
    const server = createServer(getRequestListener(a.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await fetch(`${url}/get-token`, { headers: credentials });
      expect(Object.keys(await body(r))).toEqual(['Token']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('as a bare fetch handler (any runtime): app.fetch(new Request(...))', async () => {
    const a = await app();
    const token = await a.fetch(
      new Request('http://cashback.local/get-token', { headers: credentials }),
    );
    const { Token } = await body(token);
    const offers = await a.fetch(
      new Request('http://cashback.local/active-offers', { headers: { Token } }),
    );
    expect([offers.status, await body(offers)]).toEqual([200, []]);
  });
});
