/**
 * The payment ledger over a real server on 127.0.0.1 with real fetch, on the memory store and on
 * PGlite (docs/http.md): each payment's `status` and `offer_revision` in `GET /cashback-payments`
 * and its `status` filter; late returns answered with clawbacks (or `late_return` when the engine
 * ignores them) by the engine's clock, whatever `reported_at` says; `GET /clawbacks`; and
 * `GET /payments/{transaction_id}/history`. Every answer is checked against the OpenAPI document
 * (test/http/_harness.ts), error answers included.
 */
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';
import { createPgliteStore, migrate } from '../../src/store/postgres/index.js';
import { customer, offer, tx } from '../fixtures.js';
import { EMPTY, sharedPglite } from '../postgres/_databases.js';
import { type Harness, type HarnessOptions, startHarness } from './_harness.js';

const A = 'bank-a';
const JUNE = 'date_from=2025-06-01&date_to=2025-06-30';

const shared = sharedPglite();
afterAll(() => shared.close());
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const STORES: [string, () => Promise<Store>][] = [
  ['the memory store', async () => createMemoryStore()],
  [
    'PGlite',
    async () => {
      const db = await shared.db();
      await migrate({ db });
      await db.exec(EMPTY);
      return createPgliteStore({ db });
    },
  ],
];

/** The engine's clock, moved by the tests. */
let now = new Date('2025-06-01T12:00:00Z');

/** A return of t2 (100 bought on 2025-06-02, paid 5 on 2025-06-16), overridable. */
const ret = (over: Record<string, unknown> = {}) => ({
  return_id: 'r1',
  transaction_id: 't2',
  date: '2025-06-05T10:00:00',
  amount: 40,
  ...over,
});

describe.each(STORES)('the payment ledger over HTTP on %s', (_name, makeStore) => {
  /**
   * The fixture offer (5 %, warranty 14) and customer c1; on 2025-06-01, t1 (10: 0.5) and t2
   * (100: 5), both paid on 2025-06-16, and t3 (20 on 2025-06-20: 1, paid on 2025-07-04).
   */
  async function paid(options: HarnessOptions = {}): Promise<Harness> {
    now = new Date('2025-06-01T12:00:00Z');
    h = await startHarness({ engineClock: () => now, store: await makeStore(), ...options });
    await h.engine.upsertOffers([offer()]);
    expect((await h.post(A, '/customers/', [customer()])).status).toBe(200);
    const r = await h.post(A, '/transactions', [
      tx(),
      tx({ transaction_id: 't2', amount: 100 }),
      tx({ transaction_id: 't3', amount: 20, date: '2025-06-20T10:00:00' }),
    ]);
    expect(r.body[0].payments).toHaveLength(3);
    return h;
  }

  const statuses = async (s: Harness, query = '') => {
    const r = await s.get(A, `/cashback-payments?date_from=2025-06-01&date_to=2025-07-31${query}`);
    expect(r.status, r.text).toBe(200);
    return Object.fromEntries(
      r.body.transactions.map((t: { transaction_id: string; status: string }) => [
        t.transaction_id,
        t.status,
      ]),
    );
  };

  test('GET /cashback-payments gives each payment its offer revision and its status by the clock, and filters on it', async () => {
    const s = await paid();
    const r = await s.get(A, `/cashback-payments?${JUNE}`);
    expect(r.body.transactions[0]).toEqual({
      transaction_id: 't1',
      country: 'FR',
      city: 'Paris',
      date: '2025-06-16T00:00:00.000',
      cashback_amount: 0.5,
      offer_id: 1,
      customer_id: 'c1',
      offer_revision: 1,
      status: 'pending',
    });
    expect(await statuses(s)).toEqual({ t1: 'pending', t2: 'pending', t3: 'pending' });
    // The payment day has begun (00:00 in the engine's zone): confirmed from then on.
    now = new Date('2025-06-16T00:00:00Z');
    expect(await statuses(s)).toEqual({ t1: 'confirmed', t2: 'confirmed', t3: 'pending' });
    expect(await statuses(s, '&status=confirmed')).toEqual({ t1: 'confirmed', t2: 'confirmed' });
    expect(await statuses(s, '&status=pending')).toEqual({ t3: 'pending' });
    // As a header, like the other inputs; the query string wins.
    const header = await s.get(A, '/cashback-payments?date_from=2025-06-01&date_to=2025-07-31', {
      status: 'pending',
    });
    expect(header.body.total_count).toBe(1);
    const both = await s.get(
      A,
      '/cashback-payments?date_from=2025-06-01&date_to=2025-07-31&status=confirmed',
      { status: 'pending' },
    );
    expect(both.body.total_count).toBe(2);
    // A changed offer is a new revision; payments keep the one that decided them.
    await s.engine.upsertOffers([offer({ discount: 10 })]);
    await s.post(A, '/transactions', [tx({ transaction_id: 't4', date: '2025-06-21T10:00:00' })]);
    const listed = await s.get(A, '/cashback-payments?date_from=2025-07-01&date_to=2025-07-31');
    expect(
      listed.body.transactions.map((t: { transaction_id: string; offer_revision: number }) => [
        t.transaction_id,
        t.offer_revision,
      ]),
    ).toEqual([
      ['t3', 1],
      ['t4', 2],
    ]);
  });

  test('an unknown status is a 400 naming status, never a 500, with every other bad input', async () => {
    const s = await paid();
    for (const status of ['cancelled', 'PENDING', '', 'all', '%00']) {
      const r = await s.get(A, `/cashback-payments?${JUNE}&status=${status}`);
      expect(r.status, status).toBe(400);
      expect(r.body.error).toEqual({
        code: 'invalid_query',
        message: 'The payments query is invalid',
        details: [{ path: 'status', message: "must be 'pending' or 'confirmed'" }],
      });
    }
    const r = await s.get(A, '/cashback-payments?date_from=2025-06-31&status=paid');
    expect(r.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'date_from',
      'date_to',
      'status',
    ]);
  });

  test('a return that arrives once its payment is confirmed is a clawback: the payment stays, GET /clawbacks lists it', async () => {
    const s = await paid();
    // An early return lowers t2 (5 → 3) while it is pending.
    const early = await s.post(A, '/returns', [ret()]);
    expect(early.body[0].adjustments).toMatchObject([{ previous_cashback: 5, cashback: 3 }]);
    now = new Date('2025-06-20T09:00:00Z');
    // Dated before the payment day, but it arrives after it: the bank claws 1.5 back (the 30
    // left of the 60 earn 1.5, and 3 was paid), whatever reported_at claims.
    const late = await s.post(A, '/returns', [
      ret({ return_id: 'r2', amount: 30, reported_at: '2025-06-06T10:00:00' }),
      ret({ return_id: 'r3', transaction_id: 't1', date: '2025-06-16T08:00:00', amount: 1 }),
    ]);
    expect(late.status).toBe(200);
    expect(late.body).toEqual([
      {
        event_id: expect.any(String),
        adjustments: [],
        clawbacks: [
          {
            return_id: 'r2',
            transaction_id: 't2',
            customer_id: 'c1',
            offer_id: 1,
            offer_revision: 1,
            amount: 1.5,
            date: '2025-06-05T10:00:00.000',
            reported_at: '2025-06-20T09:00:00.000',
          },
        ],
        errors: {
          r3: 'Returned on 2025-06-16, on or after the payment day 2025-06-16: the cashback stands',
        },
      },
    ]);
    // A confirmed payment never changes.
    const listed = await s.get(A, `/cashback-payments?${JUNE}`);
    expect(
      listed.body.transactions.map((t: { cashback_amount: number }) => t.cashback_amount),
    ).toEqual([0.5, 3]);
    const clawbacks = await s.get(A, `/clawbacks?${JUNE}`);
    expect(clawbacks.body).toEqual({
      total_count: 1,
      current_page: 1,
      page_size: 100,
      date_from: '2025-06-01',
      date_to: '2025-06-30',
      clawbacks: late.body[0].clawbacks,
    });
    // By the return's day: a range without 2025-06-05 lists none.
    const after = await s.get(A, '/clawbacks?date_from=2025-06-06&date_to=2025-06-30');
    expect(after.body.total_count).toBe(0);
    expect((await s.get('bank-b', `/clawbacks?${JUNE}`)).body.total_count).toBe(0);
  });

  test('GET /clawbacks pages as payments do, with inputs in the query string or headers', async () => {
    const s = await paid();
    now = new Date('2025-07-10T09:00:00Z');
    const r = await s.post(A, '/returns', [
      ret({ return_id: 'c', date: '2025-06-10T10:00:00', amount: 10 }),
      ret({ return_id: 'a', date: '2025-06-03T10:00:00', amount: 10 }),
      ret({ return_id: 'b', date: '2025-06-10T10:00:00', amount: 10 }),
    ]);
    expect(r.body[0].clawbacks.map((c: { return_id: string }) => c.return_id)).toEqual([
      'c',
      'a',
      'b',
    ]);
    const page = async (n: number, headers?: Record<string, string>) => {
      const query = headers === undefined ? `?${JUNE}&page_size=2&current_page=${n}` : '';
      const answer = await s.get(A, `/clawbacks${query}`, headers);
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    const first = await page(1);
    expect(first.total_count).toBe(3);
    // By the return's day, then return id.
    expect(first.clawbacks.map((c: { return_id: string }) => c.return_id)).toEqual(['a', 'b']);
    expect((await page(2)).clawbacks.map((c: { return_id: string }) => c.return_id)).toEqual(['c']);
    expect((await page(3)).clawbacks).toEqual([]);
    const byHeaders = await page(2, {
      date_from: '2025-06-01',
      date_to: '2025-06-30',
      page_size: '2',
      current_page: '2',
    });
    expect(byHeaders).toEqual(await page(2));
    for (const [query, path] of [
      ['date_from=2025-06-01', 'date_to'],
      [`${JUNE}&page_size=1001`, 'page_size'],
      [`${JUNE}&current_page=0`, 'current_page'],
      ['date_from=2025-07-01&date_to=2025-06-01', 'date_to'],
    ] as const) {
      const bad = await s.get(A, `/clawbacks?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error.code).toBe('invalid_query');
      expect(bad.body.error.message).toBe('The clawbacks query is invalid');
      expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
    }
  });

  test('with lateReturns ignore, a late return is answered late_return and nothing is taken', async () => {
    const s = await paid({ lateReturns: 'ignore' });
    now = new Date('2025-06-20T09:00:00Z');
    const r = await s.post(A, '/returns', [ret()]);
    expect(r.body[0]).toMatchObject({ adjustments: [], clawbacks: [] });
    expect(Object.keys(r.body[0].errors)).toEqual(['r1']);
    expect(r.body[0].errors.r1).toMatch(/confirmed/);
    expect((await s.get(A, `/clawbacks?${JUNE}`)).body.total_count).toBe(0);
    expect((await s.get(A, '/payments/t2/history')).body).toMatchObject({
      cashback: 5,
      clawed_back: 0,
      changes: [],
    });
  });

  test('a malformed reported_at, or one before date, is invalid_return for that item only', async () => {
    const s = await paid();
    const r = await s.post(A, '/returns', [
      ret({ return_id: 'x1', reported_at: 'yesterday' }),
      ret({ return_id: 'x2', reported_at: '2025-02-30T10:00:00' }),
      ret({ return_id: 'x3', reported_at: 20250606 }),
      ret({ return_id: 'x4', reported_at: '2025-06-05T09:59:59' }),
      ret({ return_id: 'ok', reported_at: '2025-06-05T10:00:00Z', amount: 20 }),
    ]);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body[0].errors)).toEqual(['x1', 'x2', 'x3', 'x4']);
    for (const message of Object.values(r.body[0].errors)) {
      expect(message).toMatch(/^Invalid return: reported_at /);
    }
    expect(r.body[0].adjustments).toMatchObject([{ return_id: 'ok', cashback: 4 }]);
  });

  test('GET /payments/{transaction_id}/history: as decided, then each adjustment and clawback in order', async () => {
    const s = await paid();
    await s.post(A, '/returns', [ret()]);
    now = new Date('2025-06-20T09:00:00Z');
    await s.post(A, '/returns', [ret({ return_id: 'r2', amount: 30 })]);
    const r = await s.get(A, '/payments/t2/history');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      transaction_id: 't2',
      customer_id: 'c1',
      offer_id: 1,
      offer_revision: 1,
      decided_cashback: 5,
      cashback: 3,
      clawed_back: 1.5,
      payment_date: '2025-06-16',
      status: 'confirmed',
      changes: [
        {
          kind: 'adjustment',
          return_id: 'r1',
          previous_cashback: 5,
          cashback: 3,
          recorded_at: '2025-06-01T12:00:00.000Z',
        },
        {
          kind: 'clawback',
          recorded_at: '2025-06-20T09:00:00.000Z',
          return_id: 'r2',
          transaction_id: 't2',
          customer_id: 'c1',
          offer_id: 1,
          offer_revision: 1,
          amount: 1.5,
          date: '2025-06-05T10:00:00.000',
          reported_at: '2025-06-20T09:00:00.000',
        },
      ],
    });
    // Trimmed as transaction ids are; percent-encoded.
    expect((await s.get(A, '/payments/%20t2%20/history')).body).toEqual(r.body);
  });

  test('a transaction id with any character, percent-encoded, has its history', async () => {
    const s = await paid();
    const id = 'a/b c?d#e%f';
    await s.post(A, '/transactions', [tx({ transaction_id: id })]);
    const r = await s.get(A, `/payments/${encodeURIComponent(id)}/history`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.transaction_id).toBe(id);
  });

  test('no payment of the transaction is a 404 payment_not_found; an id that cannot be one, a 400', async () => {
    const s = await paid();
    await s.post(A, '/transactions-history', [
      {
        transaction_id: 'h1',
        customer_id: 'c1',
        date: '2025-05-01T12:00:00',
        amount: 20,
        merchant: { name: 'x' },
      },
    ]);
    // Never stored; stored but not paid; paid by another partner's view of the same id.
    for (const [partner, id] of [
      [A, 't404'],
      [A, 'h1'],
      ['bank-b', 't1'],
    ] as const) {
      const r = await s.get(partner, `/payments/${id}/history`);
      expect(r.status, `${partner} ${id}`).toBe(404);
      expect(r.body.error).toEqual({
        code: 'payment_not_found',
        message: 'No payment of this transaction: it was not paid, or not stored by this partner',
        details: [{ path: 'transaction_id', message: `no payment of '${id}'` }],
      });
    }
    for (const [segment, message] of [
      ['%20', 'must not be empty'],
      ['x'.repeat(129), 'must be at most 128 characters'],
      ['%00', expect.stringContaining('U+0000')],
    ] as const) {
      const r = await s.get(A, `/payments/${segment}/history`);
      expect(r.status, segment).toBe(400);
      expect(r.body.error).toEqual({
        code: 'invalid_query',
        message: 'The transaction id is invalid',
        details: [{ path: 'transaction_id', message }],
      });
    }
    const none = await s.call('GET', '/payments/t1/history');
    expect(none.status).toBe(401);
    const post = await s.call('POST', '/payments/t1/history');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
