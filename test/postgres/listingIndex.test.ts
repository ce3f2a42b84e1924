/**
 * The payments listing leaves out payments at 0 (returns cancelled them) and still reads its
 * index: the partial index of migration 3 has the listing's predicate, `cashback_amount > 0`.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, expect, test } from 'vitest';
import { createPgliteStore, migrate } from '../../src/store/postgres/index.js';

const db = await PGlite.create();
afterAll(() => db.close());

test('the listing query of the SQL store is planned on the partial listing index', async () => {
  await migrate({ db });
  const store = await createPgliteStore({ db });
  await store.payments.insert(
    'bank-a',
    Array.from({ length: 50 }, (_, i) => ({
      transaction_id: `t${i}`,
      customer_id: 'c1',
      offer_id: 1,
      cashback_amount: i % 5 === 0 ? '0' : '1.5',
      payment_date: `2025-06-${String((i % 28) + 1).padStart(2, '0')}`,
      country: 'FR',
      city: 'Paris',
      event_id: 'e1',
      offer_revision: 1,
    })),
  );
  expect(
    (
      await store.payments.list('bank-a', {
        from: '2025-06-01',
        to: '2025-06-30',
        offset: 0,
        limit: 100,
      })
    ).total,
  ).toBe(40);
  // Sequential scans off: the index is chosen when its predicate is implied by the query's.
  await db.exec('SET enable_seqscan = off');
  const plan = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT transaction_id FROM cashback_payments
     WHERE partner = $1 AND payment_date BETWEEN $2 AND $3 AND cashback_amount > 0
     ORDER BY payment_date, order_key OFFSET 0 LIMIT 10`,
    ['bank-a', '2025-06-01', '2025-06-30'],
  );
  expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/cashback_payments_listed/);
  const indexes = await db.query<{ indexname: string }>(
    `SELECT indexname FROM pg_indexes WHERE tablename = 'cashback_payments' ORDER BY indexname`,
  );
  // The listing's index, and the paid payments by offer that a recount reads (migration 6).
  expect(indexes.rows.map((r) => r.indexname)).toEqual([
    'cashback_payments_late',
    'cashback_payments_listed',
    'cashback_payments_paid_by_offer',
    'cashback_payments_pkey',
  ]);
});
