/**
 * What `/get-token` keeps and shares (docs/http.md, "Security"): a changed key revokes the tokens
 * of the old one; concurrent requests with the right key all get a token, their checks shared;
 * the state kept for refused requests stays bounded whatever the application ids sent.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createEngine, createMemoryPartners, createMemoryStore } from '../../src/engine/entry.js';
import { keyChecksOf } from '../../src/http/app.js';
import {
  createHttpApp,
  type HttpLimits,
  hashApplicationKey,
  type RunningServer,
  serveHttp,
} from '../../src/http/index.js';
import { type Harness, keyOf, startHarness, TOKEN_SECRET } from './_harness.js';

const A = 'bank-a';

let h: Harness | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await h?.close();
  await server?.close();
  h = undefined;
  server = undefined;
});

/** How many replies got each status. */
const tally = (replies: readonly { status: number }[]) => {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

/** The status of `GET /active-offers` with a token. */
const offersStatus = async (s: Harness, token: string) =>
  (await s.call('GET', '/active-offers', { headers: { Token: token } })).status;

describe('a changed application key', () => {
  test("revokes every token of the old key at once; the new key's tokens and other partners' work", async () => {
    const s = await startHarness();
    h = s;
    const [oldToken, otherToken] = [await s.token(A), await s.token('bank-b')];
    expect(await offersStatus(s, oldToken)).toBe(200);
    const before = s.partners.byId.get(A);
    if (before === undefined) throw new Error('bank-a is registered');
    s.partners.byId.set(A, {
      ...before,
      application_key_hash: await hashApplicationKey('bank-a-rotated-key-0123456789'),
    });
    expect(await offersStatus(s, oldToken)).toBe(401);
    const renewed = await s.call('GET', '/get-token', {
      headers: { applicationId: A, applicationKey: 'bank-a-rotated-key-0123456789' },
    });
    expect(renewed.status).toBe(200);
    expect(await offersStatus(s, renewed.body.Token)).toBe(200);
    expect(await offersStatus(s, otherToken)).toBe(200);
    // Back to the old hash: the old token is of that key again.
    s.partners.byId.set(A, before);
    expect(await offersStatus(s, oldToken)).toBe(200);
    expect(await offersStatus(s, renewed.body.Token)).toBe(401);
  });
});

describe('concurrent token requests with the right key', () => {
  test.each([8, 80])(
    '%i at once, from as many instances of the partner, all get a token under the default limits',
    async (count) => {
      const s = await startHarness({
        limits: {},
        clientAddress: (c) => c.req.header('x-client'),
      });
      h = s;
      const replies = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          s.call('GET', '/get-token', {
            headers: { applicationId: A, applicationKey: keyOf(A), 'x-client': `10.1.0.${i}` },
          }),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    },
    60_000,
  );

  test('from one address under the default limits, 8 at once then 80 at once all get a token', async () => {
    const s = await startHarness({ limits: {} });
    h = s;
    /** `count` token requests with the right key at once, all from the harness's one address. */
    const burst = (count: number) =>
      Promise.all(
        Array.from({ length: count }, () =>
          s.call('GET', '/get-token', { headers: { applicationId: A, applicationKey: keyOf(A) } }),
        ),
      );
    const replies = [...(await burst(8)), ...(await burst(80))];
    expect(tally(replies)).toEqual({ 200: 88 });
  }, 60_000);

  test('from one address under the default limits, 88 at once with no key checked before all get a token', async () => {
    const s = await startHarness({ limits: {} });
    h = s;
    const replies = await Promise.all(
      Array.from({ length: 88 }, () =>
        s.call('GET', '/get-token', { headers: { applicationId: A, applicationKey: keyOf(A) } }),
      ),
    );
    expect(tally(replies)).toEqual({ 200: 88 });
  }, 60_000);

  test('from one address, identical checks share one: eight at once all get a token', async () => {
    const s = await startHarness({ limits: { keyChecksInFlight: 1 } });
    h = s;
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        s.call('GET', '/get-token', { headers: { applicationId: A, applicationKey: keyOf(A) } }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
  });
});

describe('the state kept for refused token requests', () => {
  /** A server with one partner whose client address is the `x-client` header. */
  async function start(limits: HttpLimits) {
    const partners = createMemoryPartners([
      { application_id: A, application_key_hash: await hashApplicationKey(keyOf(A)) },
    ]);
    const app = createHttpApp({
      engine: createEngine({ store: createMemoryStore(), partners }),
      partners,
      tokenSecret: TOKEN_SECRET,
      limits,
      clientAddress: (c) => c.req.header('x-client'),
    });
    server = await serveHttp(app, { port: 0, host: '127.0.0.1' });
    const checks = keyChecksOf.get(app);
    if (checks === undefined) throw new Error('the app has its key checks');
    const url = server.url;
    /** Sends `count` token requests, 50 at a time; the statuses seen. */
    const send = async (count: number, headers: (i: number) => Record<string, string>) => {
      const statuses = new Set<number>();
      for (let i = 0; i < count; i += 50) {
        const batch = Array.from({ length: Math.min(50, count - i) }, (_, j) =>
          fetch(`${url}/get-token`, { headers: headers(i + j) }).then(async (r) => {
            await r.arrayBuffer();
            statuses.add(r.status);
          }),
        );
        await Promise.all(batch);
      }
      return [...statuses].sort();
    };
    return { checks, send };
  }

  test('3,000 calls with 15 KB application ids keep nothing', async () => {
    const { checks, send } = await start({ tokenRequestsPerAddress: 1_000_000 });
    const statuses = await send(3000, (i) => ({
      applicationId: `${i}-${'x'.repeat(15_000)}`,
      applicationKey: 'guess',
      'x-client': '10.2.0.1',
    }));
    expect(statuses).toEqual([401]);
    expect(checks.heldEntries()).toBe(0);
  }, 120_000);

  test('3,000 wrong keys for distinct application ids from one address keep at most its failure limit of pair entries', async () => {
    const { checks, send } = await start({
      tokenRequestsPerAddress: 1_000_000,
      tokenFailuresPerAddress: 20,
      keyChecksInFlight: 64,
    });
    const statuses = await send(3000, (i) => ({
      applicationId: `guess-${i}-${'y'.repeat(100)}`,
      applicationKey: 'guess',
      'x-client': '10.2.0.2',
    }));
    expect(statuses).toEqual([401, 429]);
    // The address's request and failure counts, and one pair per failure it was allowed.
    expect(checks.heldEntries()).toBeLessThanOrEqual(2 + 20);
    // The right key from another address still gets its token.
    const right = await fetch(`${server?.url}/get-token`, {
      headers: { applicationId: A, applicationKey: keyOf(A), 'x-client': '10.2.0.3' },
    });
    expect(right.status).toBe(200);
  }, 120_000);
});
