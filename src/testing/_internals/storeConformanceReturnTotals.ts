import assert from 'node:assert/strict';
import { Money } from '../../model/money.js';
import type { ReturnedTotal, ReturnRecord } from '../../store/index.js';
import {
  makeCustomer,
  makeTransaction,
  PARTNER_A,
  PARTNER_B,
  pausedUnit,
  type Suite,
  settlesBeforeRelease,
  sortedBy,
} from './storeConformanceKit.js';

const A = PARTNER_A;
const B = PARTNER_B;

/** How long a hold that must wait for another unit is watched before that unit ends. */
const WAITING_MS = 300;

/** A return of `transaction`. */
function returned(id: string, transaction: string, amount: string): ReturnRecord {
  return {
    return_id: id,
    transaction_id: transaction,
    date: '2025-03-12T08:00:00.000000001',
    day: '2025-03-12',
    amount,
    event_id: 'event-r',
  };
}

/** Totals as comparable values: amounts compared as numbers (`1.50` is `1.5`). */
function totals(list: readonly ReturnedTotal[]): [string, string, number][] {
  return sortedBy(list, (t) => t.transaction_id).map((t) => {
    assert.ok(
      /^[0-9]+(\.[0-9]+)?$/.test(t.amount),
      `amount is a plain decimal text, got ${JSON.stringify(t.amount)}`,
    );
    return [t.transaction_id, new Money(t.amount).toFixed(), t.count];
  });
}

/** Registers the tests of `returns.hold`: running totals, and holding inside a unit. */
export function returnTotalTests(suite: Suite): void {
  suite.describe('returned totals', () => {
    suite.test(
      'hold gives what each transaction has had returned, moved by every insert; none for none',
      async (store) => {
        await store.customers.upsert(A, [makeCustomer('c1')]);
        await store.transactions.insert(A, [makeTransaction('t1'), makeTransaction('t2')]);
        assert.deepStrictEqual(totals(await store.returns.hold(A, ['t1', 't2'])), []);
        await store.returns.insert(A, [
          returned('r1', 't1', '1.25'),
          returned('r2', 't1', '0.75'),
          returned('r3', 't2', '10'),
        ]);
        // A return id stored already moves nothing.
        await store.returns.insert(A, [returned('r1', 't1', '99'), returned('r4', 't1', '0.005')]);
        assert.deepStrictEqual(totals(await store.returns.hold(A, ['t1', 't2', 't1', 'none'])), [
          ['t1', '2.005', 3],
          ['t2', '10', 1],
        ]);
        assert.deepStrictEqual(totals(await store.returns.hold(B, ['t1'])), []);
        assert.deepStrictEqual(await store.returns.hold(A, []), []);
        await assert.rejects(store.returns.hold('', ['t1']), TypeError);
      },
    );

    suite.test('a unit that throws leaves the totals as they were', async (store) => {
      await store.customers.upsert(A, [makeCustomer('c1')]);
      await store.transactions.insert(A, [makeTransaction('t1')]);
      await store.returns.insert(A, [returned('r1', 't1', '1')]);
      await assert.rejects(
        store.transaction(async (s) => {
          await s.returns.insert(A, [returned('r2', 't1', '2')]);
          // A unit reads its own inserts.
          assert.deepStrictEqual(totals(await s.returns.hold(A, ['t1'])), [['t1', '3', 2]]);
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.deepStrictEqual(totals(await store.returns.hold(A, ['t1'])), [['t1', '1', 1]]);
    });

    suite.test(
      'a hold waits for the unit that holds the transaction, then sees its returns',
      async (store) => {
        await store.customers.upsert(A, [makeCustomer('c1')]);
        await store.transactions.insert(A, [makeTransaction('t1')]);
        const first = pausedUnit(store, async (s, pause) => {
          await s.returns.hold(A, ['t1']);
          await pause();
          await s.returns.insert(A, [returned('r1', 't1', '4')]);
        });
        await first.paused;
        const second = store.transaction((s) => s.returns.hold(A, ['t1']));
        const settled = await settlesBeforeRelease(first, second, WAITING_MS);
        assert.strictEqual(settled, false, 'a second unit waits while the first holds t1');
        assert.deepStrictEqual(totals(await second), [['t1', '4', 1]]);
      },
    );
  });
}
