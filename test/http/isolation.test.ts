/**
 * Tenant isolation over HTTP (docs/concepts.md): two partners use the same customer and transaction
 * ids on every endpoint; each sees and collides with only its own data. The partner is always the
 * token's subject.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { customer, history, offer, tx } from '../fixtures.js';
import { type Harness, startHarness } from './_harness.js';

const [A, B] = ['bank-a', 'bank-b'];
let s: Harness;

beforeAll(async () => {
  s = await startHarness({ engineClock: () => new Date('2025-06-01T12:00:00Z') });
  await s.engine.upsertOffers([
    offer(),
    offer({ offer_id: 2, merchant_name: 'Back Again', audience: 'returning', discount: 10 }),
  ]);
});
afterAll(() => s.close());

const again = (over: Record<string, unknown> = {}) =>
  tx({ merchant: { id: 'm2', name: 'Back Again', category_code: '1' }, ...over });
const all = '/cashback-payments?date_from=0001-01-01&date_to=9999-12-31';

describe('two partners, the same ids, every endpoint', () => {
  test('customers: the same id is Added for each partner, and one partner updates only its own', async () => {
    expect((await s.post(A, '/customers/', [customer()])).body).toEqual({
      Added: 1,
      Updated: 0,
      Errors: {},
    });
    expect((await s.post(B, '/customers', [customer({ gender: 'M' })])).body).toEqual({
      Added: 1,
      Updated: 0,
      Errors: {},
    });
    expect((await s.store.customers.get(A, ['c1']))[0]?.gender).toBe('F');
    expect((await s.store.customers.get(B, ['c1']))[0]?.gender).toBe('M');
    expect((await s.post(A, '/customers/', [customer({ customer_id: 'only-a' })])).body.Added).toBe(
      1,
    );
  });

  test('history: the same transaction id is stored for each; history counts only for its partner', async () => {
    const h = history({ merchant: { name: 'Back Again' } });
    expect((await s.post(A, '/transactions-history', [h])).body[0].errors).toEqual({});
    expect((await s.post(B, '/transactions-history', [history()])).body[0].errors).toEqual({});
    expect(
      (
        await s.post(B, '/transactions-history', [
          history({ transaction_id: 'h2', customer_id: 'only-a' }),
        ])
      ).body[0].errors,
    ).toEqual({
      h2: "Customer with id 'only-a' not found",
    });
  });

  test('transactions: ids do not collide across partners; a customer of A is unknown to B', async () => {
    const a = await s.post(A, '/transactions', [tx(), again({ transaction_id: 't2' })]);
    expect(a.body[0].errors).toEqual({});
    expect(a.body[0].payments.map((p: { transaction_id: string }) => p.transaction_id)).toEqual([
      't1',
      't2',
    ]);
    // B's c1 has no history at Back Again (A's history is not B's): the returning offer fails.
    const b = await s.post(B, '/transactions', [
      tx(),
      again({ transaction_id: 't2' }),
      tx({ transaction_id: 't3', customer_id: 'only-a' }),
      tx({ transaction_id: 'h1' }),
    ]);
    expect(b.body[0].payments.map((p: { transaction_id: string }) => p.transaction_id)).toEqual([
      't1',
    ]);
    expect(b.body[0].errors).toEqual({
      t2: expect.stringMatching(
        /^No cashback offer associated with this transaction: offer 2 failed/,
      ),
      t3: "Customer with id 'only-a' not found",
      h1: "Transaction 'h1' is already in the service",
    });
    expect(b.body[0].event_id).not.toBe(a.body[0].event_id);
  });

  test('payments: each partner lists only its own', async () => {
    const a = await s.get(A, all);
    const b = await s.get(B, all);
    expect(a.body.total_count).toBe(2);
    expect(b.body.total_count).toBe(1);
    expect(a.body.transactions.map((t: { cashback_amount: number }) => t.cashback_amount)).toEqual([
      0.5, 1,
    ]);
    expect(b.body.transactions).toEqual([
      expect.objectContaining({ transaction_id: 't1', customer_id: 'c1', cashback_amount: 0.5 }),
    ]);
  });

  test("payments' histories: each partner sees only its own, a return changes only its own", async () => {
    const r = await s.post(B, '/returns', [
      { return_id: 'r1', transaction_id: 't1', date: '2025-06-03T10:00:00', amount: 4 },
    ]);
    expect(r.body[0].adjustments).toMatchObject([{ transaction_id: 't1', cashback: 0.3 }]);
    const a = await s.get(A, '/payments/t1/history');
    const b = await s.get(B, '/payments/t1/history');
    expect(a.body).toMatchObject({ cashback: 0.5, changes: [] });
    expect(b.body).toMatchObject({
      decided_cashback: 0.5,
      cashback: 0.3,
      changes: [{ kind: 'adjustment', return_id: 'r1' }],
    });
    // B stored t2 without paying it; A paid its own t2.
    expect((await s.get(B, '/payments/t2/history')).status).toBe(404);
    expect((await s.get(A, '/payments/t2/history')).status).toBe(200);
    const range = '/clawbacks?date_from=0001-01-01&date_to=9999-12-31';
    expect((await s.get(A, range)).body.total_count).toBe(0);
    expect((await s.get(B, range)).body.total_count).toBe(0);
  });

  test('active offers are global: both partners see the same list', async () => {
    const a = await s.get(A, '/active-offers');
    expect(a.body.map((o: { offer_id: number }) => o.offer_id)).toEqual([1, 2]);
    expect((await s.get(B, '/active-offers')).body).toEqual(a.body);
  });

  test('the store holds each partner’s rows under its own key, and a third partner has none', async () => {
    const stored = async (p: string) =>
      [...(await s.store.transactions.existing(p, ['t1', 't2', 't3', 'h1', 'h2']))].sort();
    expect(await stored(A)).toEqual(['h1', 't1', 't2']);
    expect(await stored(B)).toEqual(['h1', 't1', 't2']);
    await s.partners.add('bank-c');
    expect((await s.get('bank-c', all)).body.total_count).toBe(0);
    const c = await s.post('bank-c', '/transactions', [tx()]);
    expect(c.body[0].errors).toEqual({ t1: "Customer with id 'c1' not found" });
  });
});
