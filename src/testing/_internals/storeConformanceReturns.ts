import assert from 'node:assert/strict';
import type { ReturnRecord, StoreSession } from '../../store/index.js';
import {
  ALL_DAYS,
  makeCustomer,
  makeEvent,
  makePayment,
  makeTransaction,
  NO_LIMIT,
  PARTNER_A,
  PARTNER_B,
  pausedUnit,
  plainCopy,
  racingUnits,
  type Suite,
  settlesBeforeRelease,
  sortedBy,
  sortedIds,
} from './storeConformanceKit.js';

const A = PARTNER_A;
const B = PARTNER_B;

/** Concurrent units in the race tests. */
const CALLERS = 12;

/** How long the second of two units returning one transaction is watched for finishing early. */
const HOLD_WAIT_MS = 300;

/** A stored return of `transactionId` (t1 by default). */
function makeReturn(
  id: string,
  spec: { transaction?: string; amount?: string; event?: string } = {},
): ReturnRecord {
  return {
    return_id: id,
    transaction_id: spec.transaction ?? 't1',
    date: '2025-03-12T08:00:00.000000001',
    day: '2025-03-12',
    amount: spec.amount ?? '2.5',
    event_id: spec.event ?? 'event-r',
  };
}

const byReturnId = (r: ReturnRecord) => r.return_id;

async function listed(store: StoreSession, partner = A) {
  return plainCopy(await store.payments.list(partner, { ...ALL_DAYS, offset: 0, limit: NO_LIMIT }));
}

/** Sum of returned amounts, in cents (the suite's amounts have at most two decimals). */
function cents(returns: readonly ReturnRecord[]): number {
  return returns.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0);
}

/** Registers the tests of returns: `returns`, `transactions.get`, `payments.get`/`adjust`. */
export function returnTests(suite: Suite): void {
  suite.describe('returns', () => {
    suite.test(
      'transactions.get returns stored transactions whole; unknown ids and other partners are left out',
      async (store) => {
        const t1 = makeTransaction('t1');
        const h1 = makeTransaction('h1', { source: 'history', amount: '1234567.891' });
        await store.transactions.insert(A, [t1, h1]);
        await store.transactions.insert(B, [makeTransaction('b1')]);
        const got = await store.transactions.get(A, ['h1', 'nowhere', 't1', 'b1']);
        assert.deepStrictEqual(
          sortedBy(got, (t) => t.transaction_id),
          plainCopy([h1, t1]),
        );
        assert.deepStrictEqual(await store.transactions.get(A, []), []);
        assert.deepStrictEqual(await store.transactions.get('partner-never-seen', ['t1']), []);
      },
    );

    suite.test(
      'insert reports only the return ids that were new, never overwrites, and ofTransactions returns them whole',
      async (store) => {
        const r1 = makeReturn('r1', { amount: '1.25' });
        assert.deepStrictEqual(sortedIds(await store.returns.insert(A, [r1, makeReturn('r2')])), [
          'r1',
          'r2',
        ]);
        const again = await store.returns.insert(A, [
          makeReturn('r1', { amount: '9' }),
          makeReturn('r3', { transaction: 't2' }),
        ]);
        assert.deepStrictEqual(again, ['r3']);
        assert.deepStrictEqual(sortedIds(await store.returns.existing(A, ['r3', 'r1', 'rx'])), [
          'r1',
          'r3',
        ]);
        assert.deepStrictEqual(
          sortedBy(await store.returns.ofTransactions(A, ['t1', 'nowhere']), byReturnId),
          plainCopy([r1, makeReturn('r2')]),
        );
        assert.deepStrictEqual(
          plainCopy(await store.returns.ofTransactions(A, ['t2'])),
          plainCopy([makeReturn('r3', { transaction: 't2' })]),
        );
        assert.deepStrictEqual(await store.returns.insert(A, []), []);
      },
    );

    suite.test(
      "return ids are their own id space per partner: a transaction's id or another partner's return does not collide",
      async (store) => {
        await store.transactions.insert(A, [makeTransaction('same')]);
        assert.deepStrictEqual(await store.returns.insert(A, [makeReturn('same')]), ['same']);
        assert.deepStrictEqual(await store.returns.insert(B, [makeReturn('same')]), ['same']);
        assert.deepStrictEqual(await store.returns.existing(B, ['same']), ['same']);
        assert.deepStrictEqual(await store.returns.ofTransactions(B, ['t1']), [
          plainCopy(makeReturn('same')),
        ]);
        assert.deepStrictEqual(await store.returns.existing('partner-never-seen', ['same']), []);
        assert.deepStrictEqual(await store.transactions.existing(A, ['same']), ['same']);
      },
    );
  });

  paymentTests(suite);
  raceTests(suite);
}

/** Payments adjusted by returns: `get`, `adjust`, the listing, and a unit with all of it. */
function paymentTests(suite: Suite): void {
  suite.describe('payments adjusted by returns', () => {
    suite.test(
      'payments.adjust changes the payments that still have the previous cashback, compared as numbers',
      async (store) => {
        await store.payments.insert(A, [
          makePayment('t1', { cashback: '5' }),
          makePayment('t2', { cashback: '0.60' }),
          makePayment('t3', { cashback: '1' }),
        ]);
        const changed = await store.payments.adjust(A, [
          { transaction_id: 't1', previous_cashback_amount: '5.00', cashback_amount: '3' },
          { transaction_id: 't2', previous_cashback_amount: '0.6', cashback_amount: '0' },
          { transaction_id: 't3', previous_cashback_amount: '2', cashback_amount: '0.5' },
          { transaction_id: 'nowhere', previous_cashback_amount: '1', cashback_amount: '0' },
        ]);
        assert.deepStrictEqual(sortedIds(changed), ['t1', 't2']);
        const got = sortedBy(
          await store.payments.get(A, ['t3', 't2', 't1', 'nowhere']),
          (p) => p.transaction_id,
        );
        assert.deepStrictEqual(
          got.map((p) => [p.transaction_id, Number(p.cashback_amount)]),
          [
            ['t1', 3],
            ['t2', 0],
            ['t3', 1],
          ],
        );
        assert.deepStrictEqual(got[0], plainCopy(makePayment('t1', { cashback: '3' })));
        assert.deepStrictEqual(
          await store.payments.adjust(B, [
            { transaction_id: 't1', previous_cashback_amount: '3', cashback_amount: '0' },
          ]),
          [],
        );
        assert.deepStrictEqual(await store.payments.get(B, ['t1']), []);
      },
    );

    suite.test(
      'list shows each payment with its current cashback and leaves out payments at 0, in total too',
      async (store) => {
        await store.payments.insert(A, [
          makePayment('a', { date: '2025-03-10', cashback: '2' }),
          makePayment('b', { date: '2025-03-10', cashback: '2' }),
          makePayment('c', { date: '2025-03-11', cashback: '2' }),
        ]);
        await store.payments.adjust(A, [
          { transaction_id: 'a', previous_cashback_amount: '2', cashback_amount: '0' },
          { transaction_id: 'c', previous_cashback_amount: '2', cashback_amount: '1.5' },
        ]);
        const page = await listed(store);
        assert.equal(page.total, 2);
        assert.deepStrictEqual(
          page.items.map((p) => [p.transaction_id, Number(p.cashback_amount)]),
          [
            ['b', 2],
            ['c', 1.5],
          ],
        );
        const second = await store.payments.list(A, { ...ALL_DAYS, offset: 1, limit: 1 });
        assert.deepStrictEqual(
          { total: second.total, ids: second.items.map((p) => p.transaction_id) },
          { total: 2, ids: ['c'] },
        );
      },
    );

    suite.test(
      'a unit with returns, an adjustment and an event is kept whole, or nothing of it when it throws',
      async (store) => {
        await store.payments.insert(A, [makePayment('t1', { cashback: '5' })]);
        const unit = async (s: StoreSession, id: string) => {
          await s.returns.insert(A, [makeReturn(id)]);
          await s.payments.adjust(A, [
            { transaction_id: 't1', previous_cashback_amount: '5', cashback_amount: '0' },
          ]);
          await s.outbox.add(A, [makeEvent(`event-${id}`)]);
        };
        await assert.rejects(
          store.transaction(async (s) => {
            await unit(s, 'r1');
            throw new Error('abandoned');
          }),
          /abandoned/,
        );
        assert.deepStrictEqual(await store.returns.existing(A, ['r1']), []);
        assert.deepStrictEqual((await listed(store)).total, 1);
        assert.deepStrictEqual(await store.outbox.list(A, { limit: 10 }), []);
        await store.transaction((s) => unit(s, 'r2'));
        assert.deepStrictEqual(await store.returns.existing(A, ['r2']), ['r2']);
        assert.deepStrictEqual((await listed(store)).total, 0);
        assert.equal((await store.outbox.list(A, { limit: 10 })).length, 1);
      },
    );
  });
}
/** Units that race on one return id, and on returns of one transaction. */
function raceTests(suite: Suite): void {
  suite.describe('returns racing', () => {
    suite.test(
      'units racing on one return id: exactly one stores it, and the payment is adjusted once',
      async (store) => {
        await store.payments.insert(A, [makePayment('t1', { cashback: '5' })]);
        // As the engine does: the payment read before the unit, then insert, then adjust.
        const before = (await store.payments.get(A, ['t1']))[0]?.cashback_amount as string;
        const reports = await Promise.all(
          racingUnits(store, CALLERS, async (s, k) => {
            const inserted = await s.returns.insert(A, [makeReturn('r1', { event: `e${k}` })]);
            if (inserted.length === 0) return { inserted, adjusted: [] as readonly string[] };
            const adjusted = await s.payments.adjust(A, [
              { transaction_id: 't1', previous_cashback_amount: before, cashback_amount: '4' },
            ]);
            return { inserted, adjusted };
          }),
        );
        assert.equal(reports.filter((r) => r.inserted.length === 1).length, 1);
        assert.equal(reports.filter((r) => r.adjusted.length === 1).length, 1);
        assert.equal(Number((await store.payments.get(A, ['t1']))[0]?.cashback_amount), 4);
      },
    );

    suite.test(
      'units racing on returns of one transaction, each checking after its insert, never return more than bought',
      async (store) => {
        // Bought 10.00; each unit returns 6.00 and keeps it only if what others returned leaves room.
        await store.transactions.insert(A, [makeTransaction('t1', { amount: '10' })]);
        const outcomes = await Promise.allSettled(
          racingUnits(store, CALLERS, async (s, k) => {
            await s.returns.insert(A, [makeReturn(`r${k}`, { amount: '6' })]);
            const all = await s.returns.ofTransactions(A, ['t1']);
            if (cents(all) > 1000) throw new Error('more returned than bought');
          }),
        );
        assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
        const stored = await store.returns.ofTransactions(A, ['t1']);
        assert.equal(stored.length, 1);
        assert.ok(cents(stored) <= 1000);
      },
    );

    suite.test(
      'a return insert in a unit waits while another open unit has inserted a return of the same transaction, then reads it',
      async (store) => {
        await store.customers.upsert(A, [makeCustomer('c1')]);
        await store.transactions.insert(A, [makeTransaction('t1'), makeTransaction('t2')]);
        const first = pausedUnit(store, async (s, pause) => {
          await s.returns.insert(A, [makeReturn('r1')]);
          await pause();
        });
        await Promise.race([first.paused, first.done]);
        const second = store.transaction(async (s) => {
          const inserted = await s.returns.insert(A, [
            makeReturn('r2'),
            makeReturn('r3', { transaction: 't2' }),
          ]);
          const read = await s.returns.ofTransactions(A, ['t1']);
          return { inserted: sortedIds(inserted), read: sortedIds(read.map(byReturnId)) };
        });
        const early = await settlesBeforeRelease(first, second, HOLD_WAIT_MS);
        assert.deepStrictEqual(await second, { inserted: ['r2', 'r3'], read: ['r1', 'r2'] });
        assert.equal(early, false, 'the second return of t1 must wait until the first unit ends');
      },
    );
  });
}
