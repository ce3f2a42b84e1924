/**
 * `POST /returns` over a real server on 127.0.0.1 with real fetch, on the memory store and on
 * PGlite (docs/http.md, Add returns): a return before the payment day lowers the payment in
 * `GET /cashback-payments` (to 0: gone from it), one on or after it leaves it; every error code
 * of a return; the request-level errors of a batch route. Every response is also checked against
 * the OpenAPI document (test/http/_harness.ts).
 */
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';
import { createPgliteStore, migrate } from '../../src/store/postgres/index.js';
import { customer, history, offer, tx } from '../fixtures.js';
import { EMPTY, sharedPglite } from '../postgres/_databases.js';
import { type Harness, type HarnessOptions, startHarness } from './_harness.js';

const A = 'bank-a';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const JUNE = '/cashback-payments?date_from=2025-06-01&date_to=2025-06-30';

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

/** A return of t2 (100 bought on 2025-06-02, paid 5 on 2025-06-16), overridable. */
const ret = (over: Record<string, unknown> = {}) => ({
  return_id: 'r1',
  transaction_id: 't2',
  date: '2025-06-05T10:00:00',
  amount: 40,
  ...over,
});

describe.each(STORES)('POST /returns on %s', (_name, makeStore) => {
  /**
   * The fixture offer (Coffee House, 5 %, warranty 14), customer c1, history h1, and paid
   * transactions t1 (10: 0.5) and t2 (100: 5), both paid on 2025-06-16.
   */
  async function paid(options: HarnessOptions = {}): Promise<Harness> {
    h = await startHarness({
      engineClock: () => new Date('2025-06-01T12:00:00Z'),
      store: await makeStore(),
      ...options,
    });
    await h.engine.upsertOffers([offer()]);
    expect((await h.post(A, '/customers/', [customer()])).status).toBe(200);
    await h.post(A, '/transactions-history', [history()]);
    const r = await h.post(A, '/transactions', [tx(), tx({ transaction_id: 't2', amount: 100 })]);
    expect(r.body[0].payments).toHaveLength(2);
    return h;
  }

  const listed = async (s: Harness) => {
    const r = await s.get(A, JUNE);
    expect(r.status).toBe(200);
    return {
      total: r.body.total_count as number,
      amounts: Object.fromEntries(
        r.body.transactions.map((t: { transaction_id: string; cashback_amount: number }) => [
          t.transaction_id,
          t.cashback_amount,
        ]),
      ),
    };
  };

  test('a return before the payment day lowers the payment in GET /cashback-payments', async () => {
    const s = await paid();
    const r = await s.post(A, '/returns', [ret()]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      {
        event_id: expect.stringMatching(UUID),
        adjustments: [
          {
            return_id: 'r1',
            transaction_id: 't2',
            customer_id: 'c1',
            offer_id: 1,
            previous_cashback: 5,
            cashback: 3,
            payment_date: '2025-06-16',
          },
        ],
        clawbacks: [],
        errors: {},
      },
    ]);
    expect(await listed(s)).toEqual({ total: 2, amounts: { t1: 0.5, t2: 3 } });
  });

  test('a return of all that is left brings the payment to 0: the listing leaves it out', async () => {
    const s = await paid();
    await s.post(A, '/returns', [ret()]);
    const r = await s.post(A, '/returns', [ret({ return_id: 'r2', amount: undefined })]);
    expect(r.body[0].adjustments).toMatchObject([{ previous_cashback: 3, cashback: 0 }]);
    expect(await listed(s)).toEqual({ total: 1, amounts: { t1: 0.5 } });
  });

  test('a return on or after the payment day leaves the payment as it was', async () => {
    const s = await paid();
    const r = await s.post(A, '/returns', [
      ret({ date: '2025-06-16T00:00:00' }),
      ret({
        return_id: 'r2',
        transaction_id: 't1',
        date: '2025-07-01T08:00:00',
        amount: undefined,
      }),
    ]);
    expect(r.body).toEqual([
      {
        event_id: expect.stringMatching(UUID),
        adjustments: [],
        clawbacks: [],
        errors: {
          r1: 'Returned on 2025-06-16, on or after the payment day 2025-06-16: the cashback stands',
          r2: 'Returned on 2025-07-01, on or after the payment day 2025-06-16: the cashback stands',
        },
      },
    ]);
    expect(await listed(s)).toEqual({ total: 2, amounts: { t1: 0.5, t2: 5 } });
  });

  test('every error code, keyed by return_id or #<index>; the valid return still adjusts', async () => {
    const s = await paid();
    await s.post(A, '/returns', [ret({ return_id: 'r0', amount: 10 })]);
    const r = await s.post(A, '/returns', [
      ret({ return_id: 'bad', amount: 0 }),
      { transaction_id: 't2', date: '2025-06-05T10:00:00' },
      ret({ return_id: 'r0' }),
      ret({ return_id: 'lost', transaction_id: 't9' }),
      ret({ return_id: 'early', date: '2025-06-01T10:00:00' }),
      ret({ return_id: 'big', amount: 91 }),
      ret({ return_id: 'ok', amount: 10 }),
      ret({ return_id: 'ok', amount: 1 }),
      ret({ return_id: 'hist', transaction_id: 'h1', amount: 5 }),
      ret({ return_id: 'late', date: '2025-06-20T10:00:00', amount: 1 }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body[0].adjustments).toEqual([
      {
        return_id: 'ok',
        transaction_id: 't2',
        customer_id: 'c1',
        offer_id: 1,
        previous_cashback: 4.5,
        cashback: 4,
        payment_date: '2025-06-16',
      },
    ]);
    expect(r.body[0].errors).toEqual({
      bad: 'Invalid return: amount must be greater than 0',
      '#1': 'Invalid return: return_id is required',
      r0: "Return 'r0' is already in the service",
      lost: "Transaction with id 't9' not found",
      early: "Invalid return: date is before the transaction's date-time 2025-06-02T09:15:00.000",
      big: "Return of 91 exceeds what is left of transaction 't2': 90",
      ok: "Return 'ok' is already in the service",
      hist: "Transaction 'h1' has no cashback payment to adjust",
      late: 'Returned on 2025-06-20, on or after the payment day 2025-06-16: the cashback stands',
    });
    expect(await listed(s)).toEqual({ total: 2, amounts: { t1: 0.5, t2: 4 } });
  });

  test('request-level errors as for POST /transactions; nothing stored', async () => {
    const s = await paid({ limits: { bodyBytes: 2048, batchItems: 2 } });
    const token = await s.token(A);
    const json = { Token: token, 'content-type': 'application/json' };
    const post = (headers: Record<string, string>, body: string) =>
      s.call('POST', '/returns', { headers, body });
    const one = JSON.stringify([ret()]);
    const cases: [Record<string, string>, string, number, string][] = [
      [{ 'content-type': 'application/json' }, one, 401, 'unauthorized'],
      [{ ...json, Token: 'not-a-token' }, one, 401, 'unauthorized'],
      [json, '[{"return_id": "r1",', 400, 'invalid_json'],
      [json, JSON.stringify(ret()), 400, 'invalid_body'],
      [
        json,
        JSON.stringify([ret(), ret({ return_id: 'r2' }), ret({ return_id: 'r3' })]),
        413,
        'batch_too_large',
      ],
      [json, JSON.stringify([ret({ pad: 'x'.repeat(3000) })]), 413, 'body_too_large'],
      [{ Token: token, 'content-type': 'text/plain' }, one, 415, 'unsupported_media_type'],
    ];
    for (const [headers, body, status, code] of cases) {
      const r = await post(headers, body);
      expect(r.status, code).toBe(status);
      expect(r.body.error.code).toBe(code);
    }
    const get = await s.call('GET', '/returns', { headers: { Token: token } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await s.store.returns.existing(A, ['r1', 'r2', 'r3'])).toEqual([]);
    expect(await listed(s)).toEqual({ total: 2, amounts: { t1: 0.5, t2: 5 } });
  });

  test("a partner's returns never reach another partner's transactions", async () => {
    const s = await paid();
    const r = await s.post('bank-b', '/returns', [ret()]);
    expect(r.body[0].errors).toEqual({ r1: "Transaction with id 't2' not found" });
    expect(await listed(s)).toEqual({ total: 2, amounts: { t1: 0.5, t2: 5 } });
  });
});
