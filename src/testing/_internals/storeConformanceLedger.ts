import assert from 'node:assert/strict';
import { Money } from '../../model/money.js';
import type {
  ClawbackRecord,
  ConfirmedPayments,
  PaymentChangeRecord,
  Store,
  StoredPayment,
} from '../../store/index.js';
import {
  makeCustomer,
  makePayment,
  makeTransaction,
  PARTNER_A,
  PARTNER_B,
  pausedUnit,
  plainCopy,
  racingUnits,
  type Suite,
  settlesBeforeRelease,
  sortedBy,
} from './storeConformanceKit.js';

const A = PARTNER_A;
const B = PARTNER_B;

/** How long a take is watched while another unit holds payments, before that unit ends. */
const WAITING_MS = 300;

/** A clawback of `transaction` by return `id`. */
function clawback(
  id: string,
  transaction: string,
  amount: string,
  day = '2025-03-26',
): ClawbackRecord {
  return {
    return_id: id,
    transaction_id: transaction,
    customer_id: 'c1',
    offer_id: 1,
    offer_revision: 2,
    amount,
    date: `${day}T09:00:00.000000000`,
    day,
    reported_at: `${day}T09:00:05.000000000`,
    event_id: 'event-r',
    recorded_at: `${day}T09:00:05.000Z`,
  };
}

/** The history entry of a clawback of `transaction` by return `id`. */
function clawed(
  id: string,
  transaction: string,
  amount: string,
  day?: string,
): PaymentChangeRecord {
  return { kind: 'clawback', ...clawback(id, transaction, amount, day) };
}

/** An adjustment entry of `transaction`'s history. */
function adjustment(
  id: string,
  transaction: string,
  from: string,
  to: string,
): PaymentChangeRecord {
  return {
    kind: 'adjustment',
    return_id: id,
    transaction_id: transaction,
    previous_cashback_amount: from,
    cashback_amount: to,
    event_id: 'event-r',
    recorded_at: '2025-03-20T10:00:00.000Z',
  };
}

/** Amount texts of a record as comparable values (`1.50` is `1.5`). */
function amountsAsNumbers<T extends object>(record: T, keys: readonly (keyof T)[]): T {
  const copy = { ...plainCopy(record) } as Record<keyof T, unknown>;
  for (const key of keys) {
    const value = copy[key];
    if (typeof value === 'string') copy[key] = new Money(value).toFixed();
  }
  return copy as T;
}

/** A history entry with its amounts comparable. */
function comparableEntry(entry: PaymentChangeRecord): PaymentChangeRecord {
  return entry.kind === 'adjustment'
    ? amountsAsNumbers(entry, ['previous_cashback_amount', 'cashback_amount'])
    : amountsAsNumbers(entry, ['amount']);
}

/** A stored payment with its amounts comparable. */
function comparablePayment(payment: StoredPayment): StoredPayment {
  return amountsAsNumbers(payment, ['cashback_amount', 'clawed_back_amount']);
}

/** Stores customer c1, transactions `ids` and a payment for each, due on `date`. */
async function paid(
  store: Store,
  partner: string,
  ids: readonly string[],
  date = '2025-03-24',
  cashback = '0.62',
): Promise<void> {
  await store.customers.upsert(partner, [makeCustomer('c1')]);
  await store.transactions.insert(
    partner,
    ids.map((id) => makeTransaction(id)),
  );
  await store.payments.insert(
    partner,
    ids.map((id) => makePayment(id, { date, cashback })),
  );
}

/** Registers the tests of histories and clawbacks: `payments.record`, `history`, `clawbacks`. */
function historyTests(suite: Suite): void {
  suite.describe('payment histories', () => {
    suite.test(
      'record appends entries in order; history gives them back; clawbacks add up on the payment',
      async (store) => {
        await paid(store, A, ['t1', 't2']);
        const first = adjustment('r1', 't1', '0.62', '0.40');
        const second = clawed('r2', 't1', '0.15');
        await store.payments.record(A, [first, second]);
        await store.payments.record(A, [clawed('r3', 't1', '0.05')]);
        assert.deepStrictEqual(
          (await store.payments.history(A, 't1')).map(comparableEntry),
          [first, second, clawed('r3', 't1', '0.05')].map(comparableEntry),
        );
        assert.deepStrictEqual(await store.payments.history(A, 't2'), []);
        assert.deepStrictEqual(await store.payments.history(A, 'nowhere'), []);
        assert.deepStrictEqual(await store.payments.history(B, 't1'), []);
        const [t1] = await store.payments.get(A, ['t1']);
        assert.ok(t1 !== undefined);
        // An adjustment recorded in the history does not change the payment (`adjust` does).
        assert.deepStrictEqual(
          comparablePayment(t1),
          comparablePayment({
            ...makePayment('t1'),
            clawed_back_amount: '0.2',
            confirmed_event: null,
          }),
        );
      },
    );

    suite.test(
      'a second clawback of one return, stored or in the call, throws and records nothing',
      async (store) => {
        await paid(store, A, ['t1']);
        await store.payments.record(A, [clawed('r1', 't1', '0.10')]);
        await assert.rejects(
          store.payments.record(A, [clawed('r2', 't1', '0.10'), clawed('r1', 't1', '0.20')]),
        );
        await assert.rejects(
          store.payments.record(A, [clawed('r3', 't1', '0.10'), clawed('r3', 't1', '0.10')]),
        );
        assert.deepStrictEqual(
          (await store.payments.history(A, 't1')).map((e) => e.return_id),
          ['r1'],
        );
        const [t1] = await store.payments.get(A, ['t1']);
        assert.equal(new Money(t1?.clawed_back_amount ?? 'x').toFixed(), '0.1');
        // Another partner's return id space is its own.
        await paid(store, B, ['t1']);
        await store.payments.record(B, [clawed('r1', 't1', '0.30')]);
      },
    );

    suite.test('clawbacks list by day, then return id, paged, with the total', async (store) => {
      await paid(store, A, ['t1', 't2']);
      await store.payments.record(A, [
        clawed('b', 't1', '0.01', '2025-03-27'),
        clawed('B', 't2', '0.02', '2025-03-26'),
        clawed('a', 't2', '0.03', '2025-03-26'),
        clawed('é', 't1', '0.04', '2025-03-28'),
      ]);
      await store.payments.record(A, [adjustment('x', 't1', '0.62', '0.5')]);
      const all = await store.payments.clawbacks(A, {
        from: '2025-03-01',
        to: '2025-03-31',
        offset: 0,
        limit: 10,
      });
      assert.equal(all.total, 4);
      assert.deepStrictEqual(
        all.items.map((c) => c.return_id),
        ['B', 'a', 'b', 'é'],
      );
      assert.deepStrictEqual(
        amountsAsNumbers(plainCopy(all.items[0] as ClawbackRecord), ['amount']),
        amountsAsNumbers(clawback('B', 't2', '0.02', '2025-03-26'), ['amount']),
      );
      const page = await store.payments.clawbacks(A, {
        from: '2025-03-26',
        to: '2025-03-27',
        offset: 1,
        limit: 1,
      });
      assert.equal(page.total, 3);
      assert.deepStrictEqual(
        page.items.map((c) => c.return_id),
        ['a'],
      );
      assert.deepStrictEqual(
        await store.payments.clawbacks(B, {
          from: '2025-03-01',
          to: '2025-03-31',
          offset: 0,
          limit: 10,
        }),
        { total: 0, items: [] },
      );
    });
  });
}

/** The ids of what `take` confirmed, or `undefined`. */
function takenIds(taken: ConfirmedPayments | undefined): [string, string, string[]] | undefined {
  if (taken === undefined) return undefined;
  return [taken.partner, taken.payment_date, taken.payments.map((p) => p.transaction_id)];
}

/** Registers the tests of confirmations: `confirmations.take` and what it changes. */
function confirmationTests(suite: Suite): void {
  suite.describe('confirmations', () => {
    suite.test(
      'take confirms the oldest day first, at most limit, payments above 0 due by through, each once',
      async (store) => {
        await paid(store, A, ['b', 'a', 'c'], '2025-03-24');
        await paid(store, A, ['d'], '2025-03-23');
        await store.transactions.insert(A, [makeTransaction('later'), makeTransaction('zero')]);
        await store.payments.insert(A, [
          makePayment('later', { date: '2025-03-25' }),
          makePayment('zero', { date: '2025-03-24', cashback: '0' }),
        ]);
        const take = (event_id: string) =>
          store.confirmations.take({ through: '2025-03-24', limit: 2, event_id });
        assert.deepStrictEqual(takenIds(await take('e1')), [A, '2025-03-23', ['d']]);
        const second = await take('e2');
        assert.deepStrictEqual(takenIds(second), [A, '2025-03-24', ['a', 'b']]);
        assert.deepStrictEqual(
          plainCopy(second?.payments[0]),
          plainCopy(makePayment('a', { date: '2025-03-24' })),
          'the payments as records',
        );
        assert.deepStrictEqual(takenIds(await take('e3')), [A, '2025-03-24', ['c']]);
        assert.equal(await take('e4'), undefined, 'a payment at 0 and one due later are left');
        const got = sortedBy(
          await store.payments.get(A, ['a', 'd', 'later', 'zero']),
          (p) => p.transaction_id,
        );
        assert.deepStrictEqual(
          got.map((p) => [p.transaction_id, p.confirmed_event]),
          [
            ['a', 'e2'],
            ['d', 'e1'],
            ['later', null],
            ['zero', null],
          ],
        );
      },
    );

    suite.test('take goes across partners, one partner and day a call', async (store) => {
      await paid(store, A, ['t1'], '2025-03-24');
      await paid(store, B, ['t1'], '2025-03-24');
      const first = takenIds(
        await store.confirmations.take({ through: '2025-03-24', limit: 10, event_id: 'e1' }),
      );
      const second = takenIds(
        await store.confirmations.take({ through: '2025-03-24', limit: 10, event_id: 'e2' }),
      );
      assert.deepStrictEqual(
        sortedBy(
          [first, second].map((t) => t?.[0] ?? ''),
          (p) => p,
        ),
        [A, B],
      );
      assert.equal(
        await store.confirmations.take({ through: '2025-03-24', limit: 10, event_id: 'e3' }),
        undefined,
      );
    });

    suite.test('adjust leaves a confirmed payment as it is', async (store) => {
      await paid(store, A, ['t1', 't2'], '2025-03-24');
      await store.confirmations.take({ through: '2025-03-24', limit: 1, event_id: 'e1' });
      const changed = await store.payments.adjust(A, [
        { transaction_id: 't1', previous_cashback_amount: '0.62', cashback_amount: '0.10' },
        { transaction_id: 't2', previous_cashback_amount: '0.62', cashback_amount: '0.10' },
      ]);
      assert.deepStrictEqual([...changed], ['t2']);
      const got = sortedBy(await store.payments.get(A, ['t1', 't2']), (p) => p.transaction_id);
      assert.deepStrictEqual(
        got.map((p) => [p.transaction_id, new Money(p.cashback_amount).toFixed()]),
        [
          ['t1', '0.62'],
          ['t2', '0.1'],
        ],
      );
    });

    suite.test('a unit that ends in an error keeps none of its confirmations', async (store) => {
      await paid(store, A, ['t1'], '2025-03-24');
      await assert.rejects(
        store.transaction(async (s) => {
          await s.confirmations.take({ through: '2025-03-24', limit: 10, event_id: 'e1' });
          throw new Error('undone');
        }),
        /undone/,
      );
      const [t1] = await store.payments.get(A, ['t1']);
      assert.equal(t1?.confirmed_event, null);
      assert.deepStrictEqual(
        takenIds(
          await store.confirmations.take({ through: '2025-03-24', limit: 10, event_id: 'e2' }),
        ),
        [A, '2025-03-24', ['t1']],
      );
    });
  });
}

/** Registers the tests of confirmations racing other units, and of late purchases. */
function confirmationRaceTests(suite: Suite): void {
  suite.describe('confirmations beside other units', () => {
    suite.test('a take leaves the payments another unit is confirming to it', async (store) => {
      await paid(store, A, ['t1', 't2', 't3'], '2025-03-24');
      const holder = pausedUnit(store, async (s, pause) => {
        const taken = await s.confirmations.take({
          through: '2025-03-24',
          limit: 2,
          event_id: 'e1',
        });
        await pause();
        return takenIds(taken);
      });
      await holder.paused;
      const other = store.transaction((s) =>
        s.confirmations.take({ through: '2025-03-24', limit: 10, event_id: 'e2' }),
      );
      // A store that runs units at once skips what the first unit holds and answers; one that
      // runs them one at a time answers once it ends. Either way neither takes the other's.
      await settlesBeforeRelease(holder, other, WAITING_MS);
      assert.deepStrictEqual(await holder.done, [A, '2025-03-24', ['t1', 't2']]);
      assert.deepStrictEqual(takenIds(await other), [A, '2025-03-24', ['t3']]);
    });

    suite.test('racing units confirm each payment once', async (store) => {
      const ids = Array.from({ length: 40 }, (_, i) => `t${String(i).padStart(2, '0')}`);
      await paid(store, A, ids.slice(0, 25), '2025-03-23');
      await paid(store, A, ids.slice(25), '2025-03-24');
      const taken = await Promise.all(
        racingUnits(store, 6, async (s, k) => {
          const mine: string[] = [];
          for (let n = 0; ; n++) {
            const t = await s.confirmations.take({
              through: '2025-03-24',
              limit: 3,
              event_id: `e${k}-${n}`,
            });
            if (t === undefined) return mine;
            mine.push(...t.payments.map((p) => p.transaction_id));
          }
        }),
      );
      assert.deepStrictEqual(
        sortedBy(taken.flat(), (id) => id),
        ids,
      );
    });

    suite.test(
      'a payment stored for a day whose confirmation began is confirmed by a later take, once',
      async (store) => {
        await paid(store, A, ['t1', 't2'], '2025-03-24');
        const take = (event_id: string) =>
          store.confirmations.take({ through: '2025-03-24', limit: 10, event_id });
        assert.deepStrictEqual(takenIds(await take('e1')), [A, '2025-03-24', ['t1', 't2']]);
        await paid(store, A, ['late'], '2025-03-24');
        await paid(store, A, ['older'], '2025-03-20');
        assert.deepStrictEqual(takenIds(await take('e2')), [A, '2025-03-20', ['older']]);
        assert.deepStrictEqual(takenIds(await take('e3')), [A, '2025-03-24', ['late']]);
        assert.equal(await take('e4'), undefined);
        const got = sortedBy(
          await store.payments.get(A, ['late', 'older', 't1', 't2']),
          (p) => p.transaction_id,
        );
        assert.deepStrictEqual(
          got.map((p) => [p.transaction_id, p.confirmed_event]),
          [
            ['late', 'e3'],
            ['older', 'e2'],
            ['t1', 'e1'],
            ['t2', 'e1'],
          ],
        );
      },
    );

    suite.test(
      'a take confirms the payments a unit is storing for its day once that unit ends',
      async (store) => {
        await paid(store, A, ['t1'], '2025-03-24');
        await store.transactions.insert(A, [makeTransaction('t2')]);
        const storing = pausedUnit(store, async (s, pause) => {
          await s.transactions.insert(A, [makeTransaction('t3')]);
          await s.payments.insert(A, [makePayment('t3', { date: '2025-03-24' })]);
          await pause();
        });
        await storing.paused;
        const taking = store.confirmations.take({
          through: '2025-03-24',
          limit: 10,
          event_id: 'e1',
        });
        // A store that opens a day waits for the units storing its payments; one that runs units
        // one at a time answers once it ends. Either way no payment is left out.
        await settlesBeforeRelease(storing, taking, WAITING_MS);
        const first = takenIds(await taking);
        const rest = takenIds(
          await store.confirmations.take({ through: '2025-03-24', limit: 10, event_id: 'e2' }),
        );
        assert.deepStrictEqual(
          sortedBy([...(first?.[2] ?? []), ...(rest?.[2] ?? [])], (id) => id),
          ['t1', 't3'],
        );
        assert.equal(
          await store.confirmations.take({ through: '2025-03-24', limit: 10, event_id: 'e3' }),
          undefined,
        );
      },
    );

    suite.test(
      'an adjust waits for a take confirming its payment, then leaves it',
      async (store) => {
        await paid(store, A, ['t1', 't2'], '2025-03-24');
        const holder = pausedUnit(store, async (s, pause) => {
          const taken = await s.confirmations.take({
            through: '2025-03-24',
            limit: 1,
            event_id: 'e1',
          });
          await pause();
          return takenIds(taken);
        });
        await holder.paused;
        const adjusting = store.payments.adjust(A, [
          { transaction_id: 't1', previous_cashback_amount: '0.62', cashback_amount: '0.10' },
          { transaction_id: 't2', previous_cashback_amount: '0.62', cashback_amount: '0.10' },
        ]);
        await settlesBeforeRelease(holder, adjusting, WAITING_MS);
        assert.deepStrictEqual(await holder.done, [A, '2025-03-24', ['t1']]);
        assert.deepStrictEqual([...(await adjusting)], ['t2']);
        const got = sortedBy(await store.payments.get(A, ['t1', 't2']), (p) => p.transaction_id);
        assert.deepStrictEqual(
          got.map((p) => [
            p.transaction_id,
            new Money(p.cashback_amount).toFixed(),
            p.confirmed_event,
          ]),
          [
            ['t1', '0.62', 'e1'],
            ['t2', '0.1', null],
          ],
        );
      },
    );
  });
}

/** Registers the tests of the payment ledger's records in a store. */
export function ledgerTests(suite: Suite): void {
  historyTests(suite);
  confirmationTests(suite);
  confirmationRaceTests(suite);
}
