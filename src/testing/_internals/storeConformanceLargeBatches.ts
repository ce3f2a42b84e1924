import assert from 'node:assert/strict';
import type { PaymentRecord, ReturnRecord, TransactionRecord } from '../../store/index.js';
import {
  ALL_DAYS,
  addDays,
  listingOrder,
  makeCustomer,
  makePayment,
  makeTransaction,
  PARTNER_A,
  plainCopy,
  type Suite,
  sortedBy,
  sortedIds,
} from './storeConformanceKit.js';

const A = PARTNER_A;

/** Large batches may take a while on a store behind a network. */
const LARGE_BATCH_TIMEOUT_MS = 120_000;

/** Merchants and days the large batches spread over. */
const MERCHANTS = 7;
const DAYS = 60;
const FIRST_DAY = '2025-01-01';

/** Transaction `i` of a large batch: ids not zero-padded, so text and number order differ. */
function largeTransaction(i: number, customers: number): TransactionRecord {
  return makeTransaction(`t${i}`, {
    customer: `c${i % customers}`,
    merchant: `merchant ${i % MERCHANTS}`,
    day: addDays(FIRST_DAY, i % DAYS),
    source: i % 3 === 0 ? 'history' : 'transaction',
    amount: `${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`,
  });
}

/** Registers the large-batch tests. */
export function largeBatchTests(suite: Suite): void {
  suite.describe(`large batches (${suite.largeBatch} items in one call)`, () => {
    customerAndTransactionBatches(suite);
    paymentAndReturnBatches(suite);
  });
}

/** Customers and transactions, stored and read back in one call each. */
function customerAndTransactionBatches(suite: Suite): void {
  const n = suite.largeBatch;
  suite.test(
    'customers.upsert and customers.get handle a large batch in one call',
    async (store) => {
      const first = Array.from({ length: n }, (_, i) => makeCustomer(`c${i}`));
      assert.deepStrictEqual(plainCopy(await store.customers.upsert(A, first)), {
        added: n,
        updated: 0,
      });
      // Half of the next batch is stored already, half is new.
      const half = Math.floor(n / 2);
      const second = Array.from({ length: n }, (_, i) =>
        makeCustomer(`c${half + i}`, { gender: 'other' }),
      );
      assert.deepStrictEqual(plainCopy(await store.customers.upsert(A, second)), {
        added: half,
        updated: n - half,
      });
      const got = await store.customers.get(
        A,
        second.map((c) => c.customer_id),
      );
      assert.deepStrictEqual(
        sortedBy(got, (c) => c.customer_id),
        sortedBy(second, (c) => c.customer_id),
      );
      const firstHalf = await store.customers.get(
        A,
        first.map((c) => c.customer_id),
      );
      assert.deepStrictEqual(
        sortedBy(firstHalf, (c) => c.customer_id),
        sortedBy([...first.slice(0, half), ...second.slice(0, n - half)], (c) => c.customer_id),
      );
    },
    LARGE_BATCH_TIMEOUT_MS,
  );

  suite.test(
    'transactions.insert, existing and purchases handle a large batch in one call',
    async (store) => {
      const customers = Math.max(1, Math.floor(n / 20));
      const batch = Array.from({ length: n }, (_, i) => largeTransaction(i, customers));
      const ids = batch.map((t) => t.transaction_id);
      assert.deepStrictEqual(sortedIds(await store.transactions.insert(A, batch)), sortedIds(ids));
      assert.deepStrictEqual(await store.transactions.insert(A, batch), []);
      assert.deepStrictEqual(sortedIds(await store.transactions.existing(A, ids)), sortedIds(ids));
      assert.deepStrictEqual(
        await store.transactions.existing(
          A,
          ids.map((id) => `${id}-unknown`),
        ),
        [],
      );

      // Every pair of an even customer, from the middle day on.
      const pairs: { customerId: string; merchantKey: string }[] = [];
      for (let c = 0; c < customers; c += 2) {
        for (let m = 0; m < MERCHANTS; m++) {
          pairs.push({ customerId: `c${c}`, merchantKey: `merchant ${m}` });
        }
      }
      const fromDay = addDays(FIRST_DAY, DAYS / 2);
      const wanted = new Set(pairs.map((p) => `${p.customerId}|${p.merchantKey}`));
      const expected = batch.filter(
        (t) => t.day >= fromDay && wanted.has(`${t.customer_id}|${t.merchant_key}`),
      );
      const purchases = await store.transactions.purchases(A, { pairs, fromDay });
      assert.strictEqual(purchases.length, expected.length);
      assert.deepStrictEqual(
        sortedBy(purchases, (t) => t.transaction_id),
        sortedBy(expected, (t) => t.transaction_id),
      );
    },
    LARGE_BATCH_TIMEOUT_MS,
  );
}

/** Payments, the outbox and returns, in one call each. */
function paymentAndReturnBatches(suite: Suite): void {
  const n = suite.largeBatch;
  suite.test(
    'payments.insert and payments.list handle a large batch in one call',
    async (store) => {
      const batch: PaymentRecord[] = Array.from({ length: n }, (_, i) =>
        makePayment(`t${(i * 7919) % n}-${i}`, {
          customer: `c${i % 500}`,
          date: addDays(FIRST_DAY, (i * 31) % DAYS),
          // Never 0: listings leave out payments at 0.
          cashback: `${i % 50}.${String((i % 97) + 1).padStart(2, '0')}`,
          offer: (i % 5) + 1,
        }),
      );
      await store.payments.insert(A, batch);
      const ordered = plainCopy(listingOrder(batch));
      const all = await store.payments.list(A, { ...ALL_DAYS, offset: 0, limit: n });
      assert.strictEqual(all.total, n);
      assert.deepStrictEqual(plainCopy(all.items), ordered);

      const offset = Math.floor(n / 2) - 7;
      const page = await store.payments.list(A, { ...ALL_DAYS, offset, limit: 100 });
      assert.strictEqual(page.total, n);
      assert.deepStrictEqual(plainCopy(page.items), ordered.slice(offset, offset + 100));

      const from = addDays(FIRST_DAY, 10);
      const to = addDays(FIRST_DAY, 19);
      const inRange = ordered.filter((p) => p.payment_date >= from && p.payment_date <= to);
      const range = await store.payments.list(A, { from, to, offset: 3, limit: n });
      assert.strictEqual(range.total, inRange.length);
      assert.deepStrictEqual(plainCopy(range.items), inRange.slice(3));
    },
    LARGE_BATCH_TIMEOUT_MS,
  );

  suite.test(
    'transactions.get, returns and payments.get and adjust handle a large batch in one call',
    async (store) => {
      const txs = Array.from({ length: n }, (_, i) => largeTransaction(i, 500));
      await store.transactions.insert(A, txs);
      const ids = txs.map((t) => t.transaction_id);
      const got = await store.transactions.get(A, ids);
      assert.deepStrictEqual(
        sortedBy(got, (t) => t.transaction_id),
        sortedBy(txs, (t) => t.transaction_id),
      );
      const returns: ReturnRecord[] = txs.map((t, i) => ({
        return_id: `r${i}`,
        transaction_id: t.transaction_id,
        date: t.date,
        day: t.day,
        amount: '0.5',
        event_id: 'event-r',
      }));
      assert.strictEqual((await store.returns.insert(A, returns)).length, n);
      assert.strictEqual(
        (
          await store.returns.existing(
            A,
            returns.map((r) => r.return_id),
          )
        ).length,
        n,
      );
      const ofThem = await store.returns.ofTransactions(A, ids);
      assert.deepStrictEqual(
        sortedBy(ofThem, (r) => r.return_id),
        sortedBy(returns, (r) => r.return_id),
      );
      await store.payments.insert(
        A,
        ids.map((id) => makePayment(id, { cashback: '2' })),
      );
      const changed = await store.payments.adjust(
        A,
        ids.map((id) => ({
          transaction_id: id,
          previous_cashback_amount: '2',
          cashback_amount: '1.5',
        })),
      );
      assert.strictEqual(changed.length, n);
      const paid = await store.payments.get(A, ids);
      assert.strictEqual(paid.length, n);
      assert.ok(paid.every((p) => Number(p.cashback_amount) === 1.5));
    },
    LARGE_BATCH_TIMEOUT_MS,
  );
}
