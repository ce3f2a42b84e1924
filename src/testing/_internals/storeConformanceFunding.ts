import assert from 'node:assert/strict';
import { type CountedArithmetic, countedChange } from '../../model/countedChange.js';
import { Money, type MoneyValue } from '../../model/money.js';
import type { FundingChange, FundingRange, FundingTotal } from '../../store/index.js';
import {
  ALL_DAYS,
  makeCustomer,
  makePayment,
  makeTransaction,
  PARTNER_A,
  PARTNER_B,
  pausedUnit,
  plainCopy,
  type Suite,
  settlesBeforeRelease,
} from './storeConformanceKit.js';

const A = PARTNER_A;
const B = PARTNER_B;

/** How long a hold that must wait for another unit is watched before that unit ends. */
const WAITING_MS = 300;

/** A range of the budget of `offer` (customer `null`) or of a customer's cap. */
export function range(
  offer: number,
  customer: string | null,
  from: string,
  to = from,
): FundingRange {
  return { offer_id: offer, customer_id: customer, from, to };
}

/** A change of one counter on one day. */
export function change(
  offer: number,
  customer: string | null,
  day: string,
  amount: string,
  count = 1,
): FundingChange {
  return { offer_id: offer, customer_id: customer, day, amount, count };
}

/**
 * Asserts that totals are these amounts (compared as numbers: `0.60` is `0.6`, exactly) and
 * counts, in order.
 */
export function assertTotals(
  actual: readonly FundingTotal[],
  expected: readonly (readonly [string, number])[],
): void {
  assert.strictEqual(actual.length, expected.length, 'one total per range');
  actual.forEach((t, i) => {
    const [amount, count] = expected[i] as readonly [string, number];
    assert.ok(
      typeof t.amount === 'string' && /^-?[0-9]+(\.[0-9]+)?$/.test(t.amount),
      `total ${i}: amount is a plain decimal text, got ${JSON.stringify(t.amount)}`,
    );
    assert.ok(new Money(t.amount).eq(amount), `total ${i}: amount ${t.amount}, expected ${amount}`);
    assert.strictEqual(t.count, count, `total ${i}: count`);
  });
}

/** Totals: sums over ranges of days, exact, shared by partners for budgets only. */
function totalTests(suite: Suite): void {
  suite.test('a counter never written holds 0, and no range gives no total', async (store) => {
    assertTotals(await store.funding.hold(A, [range(1, null, '2025-03-01', '2025-03-31')]), [
      ['0', 0],
    ]);
    assert.deepStrictEqual(plainCopy(await store.funding.hold(A, [])), []);
    await store.funding.add(A, []);
    assertTotals(
      await store.transaction((s) => s.funding.hold(A, [range(1, 'c1', '2025-03-01')])),
      [['0', 0]],
    );
  });

  suite.test('a total sums the days of its range, both ends included', async (store) => {
    await store.funding.add(A, [
      change(1, null, '2025-02-28', '100'),
      change(1, null, '2025-03-01', '0.10'),
      change(1, null, '2025-03-15', '0.20'),
      change(1, null, '2025-03-31', '0.03'),
      change(1, null, '2025-04-01', '200'),
      change(2, null, '2025-03-10', '300'),
    ]);
    assertTotals(
      await store.funding.hold(A, [
        range(1, null, '2025-03-01', '2025-03-31'),
        range(1, null, '2025-03-15'),
        range(1, null, '2025-03-16', '2025-03-30'),
        range(2, null, '2025-03-01', '2025-03-31'),
        range(1, null, '2025-03-01', '2025-03-31'),
      ]),
      [
        ['0.33', 3],
        ['0.2', 1],
        ['0', 0],
        ['300', 1],
        ['0.33', 3],
      ],
    );
  });

  suite.test('changes add up exactly, also within one call and when negative', async (store) => {
    const day = '2025-03-10';
    await store.funding.add(A, [
      change(1, null, day, '0.1'),
      change(1, null, day, '0.2'),
      change(1, 'c1', day, '1234567890123.4567'),
    ]);
    await store.funding.add(A, [
      change(1, null, day, '-0.1', -1),
      change(1, 'c1', day, '0.0001', 0),
    ]);
    assertTotals(await store.funding.hold(A, [range(1, null, day), range(1, 'c1', day)]), [
      ['0.2', 1],
      ['1234567890123.4568', 1],
    ]);
    await store.funding.add(A, [change(1, null, day, '-0.2', -1)]);
    assertTotals(await store.funding.hold(A, [range(1, null, day)]), [['0', 0]]);
  });

  suite.test('a budget is shared by every partner; a cap is one partner’s', async (store) => {
    const day = '2025-03-10';
    await store.funding.add(A, [change(1, null, day, '1.50'), change(1, 'c1', day, '1.50')]);
    await store.funding.add(B, [change(1, null, day, '2.25'), change(1, 'c1', day, '2.25')]);
    await store.funding.add(A, [change(1, 'c2', day, '0.75'), change(2, 'c1', day, '0.05')]);
    const ranges = [range(1, null, day), range(1, 'c1', day), range(1, 'c2', day)];
    assertTotals(await store.funding.hold(A, ranges), [
      ['3.75', 2],
      ['1.5', 1],
      ['0.75', 1],
    ]);
    assertTotals(await store.funding.hold(B, ranges), [
      ['3.75', 2],
      ['2.25', 1],
      ['0', 0],
    ]);
    assertTotals(await store.funding.hold(A, [range(2, 'c1', day), range(2, null, day)]), [
      ['0.05', 1],
      ['0', 0],
    ]);
  });
  suite.test(
    'a recount replaces counters with what the stored payments add up to',
    async (store) => {
      const [d1, d2] = ['2025-03-10', '2025-03-11'];
      await store.customers.upsert(A, [makeCustomer('c1'), makeCustomer('c2')]);
      await store.customers.upsert(B, [makeCustomer('c1')]);
      await store.transactions.insert(A, [
        makeTransaction('t1', { day: d1 }),
        makeTransaction('t2', { day: d2, customer: 'c2' }),
        makeTransaction('t3', { day: d2 }),
        makeTransaction('t4', { day: d2 }),
      ]);
      await store.transactions.insert(B, [makeTransaction('t1', { day: d1 })]);
      await store.payments.insert(A, [
        makePayment('t1', { cashback: '1.10' }),
        makePayment('t2', { cashback: '0.20', customer: 'c2' }),
        makePayment('t3', { cashback: '0', offer: 1 }),
        makePayment('t4', { cashback: '5.00', offer: 2 }),
      ]);
      await store.payments.insert(B, [makePayment('t1', { cashback: '0.03' })]);
      // Stale counters of offer 1 (what a recount replaces) and of offer 2 (what it leaves alone).
      await store.funding.add(A, [
        change(1, null, d1, '9'),
        change(1, 'c1', d1, '9'),
        change(2, null, d2, '1'),
      ]);
      await store.funding.recount({ budgets: [1], caps: [1] });
      const all = { from: ALL_DAYS.from, to: ALL_DAYS.to };
      assertTotals(
        await store.funding.hold(A, [
          range(1, null, d1),
          range(1, null, d2),
          { offer_id: 1, customer_id: 'c1', ...all },
          { offer_id: 1, customer_id: 'c2', ...all },
          range(2, null, d2),
        ]),
        [
          ['1.13', 2],
          ['0.2', 1],
          ['1.1', 1],
          ['0.2', 1],
          ['1', 1],
        ],
      );
      assertTotals(await store.funding.hold(B, [{ offer_id: 1, customer_id: 'c1', ...all }]), [
        ['0.03', 1],
      ]);
      await store.funding.recount({ budgets: [], caps: [] });
      await assert.rejects(
        store.funding.recount({ budgets: [0], caps: [] } as never),
        (e: unknown) => e instanceof RangeError || e instanceof TypeError,
      );
    },
  );
}

/** Exact decimals, as the counting rule needs them. */
const EXACT: CountedArithmetic<MoneyValue> = {
  isZero: (a) => a.isZero(),
  minus: (a, b) => a.minus(b),
};

/**
 * A recount against the counting rule's own sums (`countedChange`): a store that restates the rule
 * (in SQL, say) fails here when it counts a payment otherwise, one at 0 or lowered by a return.
 */
function recountRuleTest(suite: Suite): void {
  suite.test('a recount counts each payment as the counting rule does', async (store) => {
    const days = ['2025-04-01', '2025-04-02'];
    // Per payment: customer, day, cashback as paid, cashback after an adjustment (if any).
    const paid: readonly (readonly [string, string, string, string | undefined])[] = [
      ['c1', days[0] as string, '0.01', undefined],
      ['c1', days[0] as string, '2.50', '0'],
      ['c1', days[1] as string, '3.333', '1.2'],
      ['c2', days[0] as string, '0', undefined],
      ['c2', days[1] as string, '7', '6.99'],
      ['c2', days[1] as string, '1000000000000.01', undefined],
    ];
    await store.customers.upsert(A, [makeCustomer('c1'), makeCustomer('c2')]);
    await store.transactions.insert(
      A,
      paid.map(([customer, day], i) => makeTransaction(`r${i}`, { customer, day })),
    );
    await store.payments.insert(
      A,
      paid.map(([customer, , cashback], i) =>
        makePayment(`r${i}`, { customer, cashback, offer: 9 }),
      ),
    );
    await store.payments.adjust(
      A,
      paid.flatMap(([, , previous, after], i) =>
        after === undefined
          ? []
          : [
              {
                transaction_id: `r${i}`,
                previous_cashback_amount: previous,
                cashback_amount: after,
              },
            ],
      ),
    );
    await store.funding.recount({ budgets: [9], caps: [9] });
    const ranges: FundingRange[] = [];
    const expected: [string, number][] = [];
    for (const customer of [null, 'c1', 'c2']) {
      for (const day of days) {
        let amount = new Money(0);
        let count = 0;
        for (const [c, d, cashback, after] of paid) {
          if (d !== day || (customer !== null && c !== customer)) continue;
          const counted = countedChange(new Money(0), new Money(after ?? cashback), EXACT);
          amount = amount.plus(counted.amount);
          count += counted.count;
        }
        ranges.push(range(9, customer, day));
        expected.push([amount.toFixed(), count]);
      }
    }
    assertTotals(await store.funding.hold(A, ranges), expected);
  });
}

/** What a unit of work holds: kept from others until it ends, taken back when it throws. */
function holdingTests(suite: Suite): void {
  suite.test('a unit that throws leaves the counters as they were', async (store) => {
    const day = '2025-03-10';
    await store.funding.add(A, [change(1, null, day, '1')]);
    await assert.rejects(
      store.transaction(async (s) => {
        assertTotals(await s.funding.hold(A, [range(1, null, day), range(1, 'c1', day)]), [
          ['1', 1],
          ['0', 0],
        ]);
        await s.funding.add(A, [change(1, null, day, '0.5'), change(1, 'c1', day, '0.5')]);
        await s.funding.add(A, [change(1, null, '2025-03-11', '7')]);
        // A unit reads its own adds.
        assertTotals(
          await s.funding.hold(A, [range(1, null, day, '2025-03-11'), range(1, 'c1', day)]),
          [
            ['8.5', 3],
            ['0.5', 1],
          ],
        );
        throw new Error('boom');
      }),
      /boom/,
    );
    assertTotals(
      await store.funding.hold(A, [range(1, null, day, '2025-03-11'), range(1, 'c1', day)]),
      [
        ['1', 1],
        ['0', 0],
      ],
    );
  });

  suite.test(
    'a hold waits for the unit that holds the counter, then sees its adds',
    async (store) => {
      const day = '2025-03-10';
      const first = pausedUnit(store, async (s, pause) => {
        await s.funding.hold(B, [range(7, null, day)]);
        await pause();
        await s.funding.add(B, [change(7, null, day, '0.07')]);
      });
      await first.paused;
      const second = store.transaction((s) => s.funding.hold(A, [range(7, null, day)]));
      const settled = await settlesBeforeRelease(first, second, WAITING_MS);
      assert.strictEqual(
        settled,
        false,
        'a second unit’s hold waits while the first unit holds the budget',
      );
      assertTotals(await second, [['0.07', 1]]);
    },
  );

  suite.test(
    'an add on the store itself waits for the unit that holds the counter',
    async (store) => {
      const day = '2025-03-10';
      const unit = pausedUnit(store, async (s, pause) => {
        const [before] = await s.funding.hold(A, [range(7, 'c1', day)]);
        await pause();
        // What the unit decided on is still what it holds.
        assertTotals(await s.funding.hold(A, [range(7, 'c1', day)]), [['0', 0]]);
        await s.funding.add(A, [change(7, 'c1', day, '0.07')]);
        return before;
      });
      await unit.paused;
      const outside = store.funding.add(A, [change(7, 'c1', day, '0.05')]);
      const settled = await settlesBeforeRelease(unit, outside, WAITING_MS);
      assert.strictEqual(settled, false, 'the add waits while a unit holds the cap');
      await outside;
      assertTotals(await store.funding.hold(A, [range(7, 'c1', day)]), [['0.12', 2]]);
    },
  );
}

/** Registers the tests of `funding` that need no race (those that do: storeConformanceFundingRaces). */
export function fundingTests(suite: Suite): void {
  suite.describe('funding', () => {
    totalTests(suite);
    recountRuleTest(suite);
    holdingTests(suite);
  });
}
