import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { BudgetBurn } from '../../../src/core/backtest/BudgetBurn.js';
import { backtestReport } from '../../../src/files/index.js';
import { backtest, Money, replay } from '../../../src/index.js';
import { generatedData, nested } from '../../files/generated.js';
import { customer, offer, tx } from '../../fixtures.js';

/** Transactions `t1…tn` of `c1` at the Coffee House, one a day from 2025-06-02 (a Monday). */
function txs(amounts: readonly number[], over: Record<string, unknown> = {}) {
  return amounts.map((amount, i) =>
    tx({
      transaction_id: `t${i + 1}`,
      amount,
      date: `2025-06-${String(2 + i).padStart(2, '0')}T09:00:00`,
      ...over,
    }),
  );
}

/** The offers with neither budget nor cap. */
function unfunded(offers: readonly unknown[]): unknown[] {
  return offers.map((o) => {
    const { budget: _b, customer_cap: _c, ...rest } = o as Record<string, unknown>;
    return rest;
  });
}

const minus = (a: string, b: string): string => new Money(a).minus(b).toFixed(2);

describe('backtest: budget burn', () => {
  test('a budget for the whole offer burns day by day and runs out on the day of its partial payment', async () => {
    const b = await backtest({
      baseline: [offer({ discount: 10, budget: { amount: 10 } })],
      candidate: [offer({ discount: 10 })],
      customers: [customer()],
      transactions: txs([40, 40, 40, 40, 40]),
    });
    expect(b.budgets).toEqual({
      baseline: [
        {
          offerId: 1,
          budget: '10',
          period: 'offer',
          spent: '10.00',
          days: [
            { day: '2025-06-02', cashback: '4.00', cumulative: '4.00' },
            { day: '2025-06-03', cashback: '4.00', cumulative: '8.00' },
            { day: '2025-06-04', cashback: '2.00', cumulative: '10.00' },
          ],
          ranOut: '2025-06-04',
        },
      ],
      candidate: [],
    });
    // t3 paid 2 of 4, t4 and t5 nothing of 4: 10 held back by the budget.
    expect(b.heldBack?.total.baseline).toEqual({
      transactions: 3,
      cashback: '10.00',
      byCheck: { customer_cap: '0.00', budget: '10.00' },
    });
    expect(b.heldBack?.total.candidate).toEqual({
      transactions: 0,
      cashback: '0.00',
      byCheck: { customer_cap: '0.00', budget: '0.00' },
    });
    expect(b.heldBack?.total.difference.cashback).toBe('-10.00');
    expect(b.heldBack?.byOffer.map((r) => r.key)).toEqual(['1']);
  });

  test('a budget spent exactly runs out on the day the next transaction fails its check', async () => {
    const b = await backtest({
      baseline: [offer({ discount: 10, budget: { amount: 8 } })],
      candidate: [offer({ discount: 10, budget: { amount: 100 } })],
      customers: [customer()],
      transactions: txs([40, 40, 40]),
    });
    expect(b.budgets?.baseline[0]).toMatchObject({ spent: '8.00', ranOut: '2025-06-04' });
    expect(b.budgets?.candidate[0]).toMatchObject({ spent: '12.00', ranOut: null });
  });

  test('a budget per day has one burn per day it paid, each with its own period', async () => {
    const b = await backtest({
      baseline: [offer({ discount: 10, budget: { amount: 5, period: 'day' } })],
      candidate: [offer({ discount: 10, budget: { amount: '6.5', period: 'week' } })],
      customers: [customer()],
      // Two a day on 2 and 3 June, then one on 9 June (the next ISO week).
      transactions: [
        ...txs([40, 40], { date: '2025-06-02T09:00:00' }),
        ...txs([40, 40], { date: '2025-06-03T09:00:00' }).map((t, i) => ({
          ...t,
          transaction_id: `u${i}`,
        })),
        tx({ transaction_id: 'w', amount: 40, date: '2025-06-09T09:00:00' }),
      ],
    });
    const brief = (burns: readonly BudgetBurn[] | undefined) =>
      burns?.map((x) => [x.start, x.end, x.spent, x.ranOut]);
    expect(brief(b.budgets?.baseline)).toEqual([
      ['2025-06-02', '2025-06-02', '5.00', '2025-06-02'],
      ['2025-06-03', '2025-06-03', '5.00', '2025-06-03'],
      ['2025-06-09', '2025-06-09', '4.00', null],
    ]);
    expect(brief(b.budgets?.candidate)).toEqual([
      // 4 then the last 2.50 of the week on 2 June: partial, so it ran out that day.
      ['2025-06-02', '2025-06-08', '6.50', '2025-06-02'],
      ['2025-06-09', '2025-06-15', '4.00', null],
    ]);
    expect(b.charts.budgetBurn).toMatchObject({ layer: expect.any(Array) });
  });

  test('an offer that pays nothing still has its burn for the whole offer', async () => {
    const b = await backtest({
      baseline: [offer({ budget: { amount: 10 }, merchant_name: 'Elsewhere' })],
      candidate: [offer()],
      customers: [customer()],
      transactions: txs([40]),
    });
    expect(b.budgets?.baseline).toEqual([
      { offerId: 1, budget: '10', period: 'offer', spent: '0.00', days: [], ranOut: null },
    ]);
  });
});

describe('backtest: the day a budget ran out', () => {
  test('property: with one offer, it is the first day of its period a payment was cut or the budget check failed', async () => {
    const scenario = fc.record({
      discount: fc.integer({ min: 1, max: 20 }),
      budget: fc.record({
        amount: fc.integer({ min: 1, max: 40 }),
        period: fc.constantFrom('offer', 'day', 'week', 'month'),
      }),
      items: fc.array(fc.tuple(fc.integer({ min: 1, max: 200 }), fc.nat(45)), { maxLength: 30 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ discount, budget, items }) => {
        const day = (n: number) => new Date(Date.UTC(2025, 5, 1 + n)).toISOString().slice(0, 10);
        const transactions = [...items]
          .sort((x, y) => x[1] - y[1])
          .map(([amount, d], i) =>
            tx({ transaction_id: `t${i}`, amount, date: `${day(d)}T09:00:00` }),
          );
        const set = [offer({ discount, budget })];
        const data = { customers: [customer()], transactions };
        const b = await backtest({ ...data, baseline: set, candidate: set });
        const r = replay({ ...data, offers: set });
        const paid = new Map(r.payments.map((p) => [p.transaction_id, p.cashback]));
        const failed = new Set(
          r.errors.filter((e) => e.message.includes('budget check')).map((e) => e.key),
        );
        // The days a payment was cut or the check failed, by the period they fall in.
        const events = transactions.flatMap((t) => {
          const id = t.transaction_id as string;
          const full = new Money(t.amount as number).times(discount).div(100).toDecimalPlaces(2, 4);
          const got = paid.get(id);
          const cut = got !== undefined && full.gt(got);
          return cut || failed.has(id) ? [(t.date as string).slice(0, 10)] : [];
        });
        const burns = b.budgets?.baseline ?? [];
        const holds = (burn: BudgetBurn, d: string) =>
          burn.start === undefined || (d >= burn.start && d <= (burn.end as string));
        for (const burn of burns) {
          expect(burn.ranOut, `${burn.start}`).toBe(events.find((d) => holds(burn, d)) ?? null);
        }
        for (const d of events)
          expect(
            burns.some((burn) => holds(burn, d)),
            d,
          ).toBe(true);
      }),
      { numRuns: 80 },
    );
  });
});

describe('backtest: cashback held back', () => {
  test('a cap holds back under customer_cap, and an offer behind the budget pays what it can', async () => {
    const b = await backtest({
      // Offer 1 at 10 % with a budget of 6; offer 2 at 5 % at the same merchant, unfunded.
      baseline: [
        offer({ discount: 10, budget: { amount: 6 } }),
        offer({ offer_id: 2, discount: 5 }),
      ],
      candidate: [offer({ discount: 10, customer_cap: { count: 1, period: 'week' } })],
      customers: [customer()],
      transactions: txs([40, 40, 40]),
    });
    // t1: 4 of 4; t2: offer 1 pays its last 2 (a tie with offer 2 goes to the lower id); t3:
    // offer 2 pays 2. Offer 1 would have paid 4 each time: 2 + 2 held back by its budget.
    expect(b.heldBack?.byOffer).toEqual([
      {
        key: '1',
        baseline: {
          transactions: 2,
          cashback: '4.00',
          byCheck: { customer_cap: '0.00', budget: '4.00' },
        },
        candidate: {
          transactions: 2,
          cashback: '8.00',
          byCheck: { customer_cap: '8.00', budget: '0.00' },
        },
        difference: {
          transactions: 0,
          cashback: '4.00',
          byCheck: { customer_cap: '8.00', budget: '-4.00' },
        },
      },
    ]);
    expect(b.budgets?.baseline[0]?.ranOut).toBe('2025-06-03');
    expect(b.budgets?.candidate).toEqual([]);
  });

  test('a backtest with no budget and no cap has neither field nor the burn chart', async () => {
    const b = await backtest({
      baseline: [offer()],
      candidate: [offer({ discount: 7 })],
      customers: [customer()],
      transactions: txs([40]),
    });
    expect(b.budgets).toBeUndefined();
    expect(b.heldBack).toBeUndefined();
    expect(Object.keys(b.charts)).toEqual(['cashbackPerDay', 'offerDifference', 'outcomes']);
  });

  test('over generated data in several chunks: held back is what the offers would pay without funding less what they paid, and each budget adds up to what its offer paid', async () => {
    const data = generatedData(31, 60, 3000);
    const transactions = data.transactions.map(nested);
    const funding: Record<number, Record<string, unknown>> = {
      1: { budget: { amount: 40, period: 'month' }, customer_cap: { amount: 3, period: 'week' } },
      2: { customer_cap: { count: 2, period: 'month' } },
      3: { budget: { amount: '25.5' } },
      4: { budget: { amount: 20, period: 'week' } },
      5: { customer_cap: { amount: 1, count: 3, period: 'offer' } },
    };
    const funded = (data.offers as { offer_id: number }[]).map((o) => ({
      ...o,
      ...funding[o.offer_id],
    }));
    const b = await backtest({
      baseline: funded,
      candidate: data.offers,
      customers: data.customers,
      transactions,
    });
    const withFunding = replay({ ...data, offers: funded, transactions }).summary;
    const without = replay({ ...data, transactions }).summary;
    const held = b.heldBack?.total.baseline;
    expect(held?.cashback).toBe(minus(without.totalCashback, withFunding.totalCashback));
    expect(Number(held?.byCheck.customer_cap)).toBeGreaterThan(0);
    expect(Number(held?.byCheck.budget)).toBeGreaterThan(0);
    expect(held?.cashback).toBe(
      new Money(held?.byCheck.customer_cap ?? 0).plus(held?.byCheck.budget ?? 0).toFixed(2),
    );
    expect(b.heldBack?.total.candidate.cashback).toBe('0.00');
    checkBurns(b.budgets?.baseline ?? [], withFunding.byOffer);
    expect(b.budgets?.baseline.some((x) => x.ranOut !== null)).toBe(true);
  });

  test('property: held back adds up to the difference from the same offers unfunded, and budgets to what their offers paid', async () => {
    const period = fc.constantFrom('offer', 'day', 'week', 'month');
    const funding = fc.record(
      {
        budget: fc.record({ amount: fc.integer({ min: 1, max: 30 }), period }),
        customer_cap: fc.record({ count: fc.integer({ min: 1, max: 4 }), period }),
      },
      { requiredKeys: [] },
    );
    const scenario = fc.record({
      offers: fc.array(fc.tuple(fc.integer({ min: 1, max: 20 }), funding), {
        minLength: 1,
        maxLength: 3,
      }),
      amounts: fc.array(
        fc.tuple(fc.integer({ min: 1, max: 200 }), fc.nat(20), fc.constantFrom('c1', 'c2')),
        { maxLength: 30 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ offers, amounts }) => {
        const set = offers.map(([discount, f], i) => offer({ offer_id: i + 1, discount, ...f }));
        const transactions = amounts
          .map(([amount, day, c], i) =>
            tx({
              transaction_id: `t${i}`,
              customer_id: c,
              amount,
              date: `2025-06-${String(1 + day).padStart(2, '0')}T09:00:00`,
            }),
          )
          .sort((x, y) => String(x.date).localeCompare(String(y.date)));
        const data = {
          customers: [customer(), customer({ customer_id: 'c2' })],
          transactions,
        };
        const b = await backtest({ ...data, baseline: set, candidate: unfunded(set) });
        const paid = replay({ ...data, offers: set }).summary;
        const without = replay({ ...data, offers: unfunded(set) }).summary;
        // Neither field when no offer has a budget or a cap.
        expect(b.heldBack?.total.baseline.cashback ?? '0.00').toBe(
          minus(without.totalCashback, paid.totalCashback),
        );
        checkBurns(b.budgets?.baseline ?? [], paid.byOffer);
      }),
      { numRuns: 60 },
    );
  });
});

/**
 * Each offer's burns add up to what it paid; no period spends more than its budget; a budget
 * that ran out had spent it all (to the cent) by that day.
 */
function checkBurns(
  burns: readonly BudgetBurn[],
  byOffer: Readonly<Record<string, { cashback: string }>>,
): void {
  const spent = new Map<number, InstanceType<typeof Money>>();
  for (const x of burns) {
    spent.set(x.offerId, (spent.get(x.offerId) ?? new Money(0)).plus(x.spent));
    expect(new Money(x.spent).lte(x.budget), `offer ${x.offerId} ${x.start}`).toBe(true);
    expect(x.days.at(-1)?.cumulative ?? '0.00').toBe(x.spent);
    if (x.ranOut !== null) {
      const upTo = x.days.filter((d) => d.day <= (x.ranOut as string)).at(-1);
      expect(upTo?.cumulative).toBe(new Money(x.budget).toDecimalPlaces(2, 1).toFixed(2));
    }
  }
  for (const [id, sum] of spent) {
    expect(sum.toFixed(2), `offer ${id}`).toBe(byOffer[String(id)]?.cashback ?? '0.00');
  }
}

describe('backtest: cashback held back, with returns', () => {
  test('held back stays as decided, and its net of returns follows both payments through the returns', async () => {
    const returns = [
      // t3 (paid 2 of 4) returned whole the same evening: 2 goes back to the budget, so t4 is paid 2.
      { return_id: 'r1', transaction_id: 't3', date: '2025-06-04T23:00:00' },
    ];
    const b = await backtest({
      baseline: [offer({ discount: 10, budget: { amount: 10 } })],
      candidate: [offer({ discount: 10 })],
      customers: [customer()],
      transactions: txs([40, 40, 40, 40]),
      returns,
    });
    // Held back as decided: t3 2, t4 2. Net of returns: t3 nothing either way, t4 still 2.
    expect(b.heldBack?.total.baseline).toEqual({
      transactions: 2,
      cashback: '4.00',
      byCheck: { customer_cap: '0.00', budget: '4.00' },
      netOfReturns: { cashback: '2.00', byCheck: { customer_cap: '0.00', budget: '2.00' } },
    });
    expect(b.heldBack?.total.candidate.netOfReturns?.cashback).toBe('0.00');
    expect(b.heldBack?.total.difference.netOfReturns?.cashback).toBe('-2.00');
    // The burn is as decided: 4 + 4 + 2 + 2, the return's 2 given back in between.
    expect(b.budgets?.baseline[0]).toMatchObject({ spent: '12.00', ranOut: '2025-06-04' });
    // The report's table has the net of returns after each set's held-back cashback.
    const page = backtestReport(b);
    expect(page).toContain('<th>cashback</th><th>net of returns</th>');
    expect(page).toContain(
      '<tr><th>total</th><td>2</td><td>0.00</td><td>4.00</td><td>4.00</td><td>2.00</td>',
    );
  });

  test('property: with one offer, held back net of returns is the unfunded net less the funded net', async () => {
    const period = fc.constantFrom('offer', 'week');
    const scenario = fc.record({
      discount: fc.integer({ min: 1, max: 20 }),
      funding: fc.record(
        {
          budget: fc.record({ amount: fc.integer({ min: 1, max: 30 }), period }),
          customer_cap: fc.record({ amount: fc.integer({ min: 1, max: 10 }), period }),
        },
        { requiredKeys: [] },
      ),
      items: fc.array(
        fc.record({
          amount: fc.integer({ min: 1, max: 200 }),
          day: fc.nat(20),
          customer: fc.constantFrom('c1', 'c2'),
          returned: fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
          after: fc.nat(20),
        }),
        { maxLength: 25 },
      ),
    });
    const at = (day: number) => `2025-06-${String(1 + day).padStart(2, '0')}T09:00:00`;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ discount, funding, items }) => {
        const set = [offer({ discount, warranty: 10, ...funding })];
        const sorted = [...items].sort((x, y) => x.day - y.day);
        const transactions = sorted.map((t, i) =>
          tx({
            transaction_id: `t${i}`,
            customer_id: t.customer,
            amount: t.amount,
            date: at(t.day),
          }),
        );
        const returns = sorted.flatMap((t, i) =>
          t.returned === undefined
            ? []
            : [
                {
                  return_id: `r${i}`,
                  transaction_id: `t${i}`,
                  date: at(Math.min(t.day + t.after, 29)).replace('09:00', '10:00'),
                  amount: Math.min(t.returned, t.amount),
                },
              ],
        );
        const data = { customers: [customer(), customer({ customer_id: 'c2' })], transactions };
        const b = await backtest({ ...data, returns, baseline: set, candidate: unfunded(set) });
        const net = (offers: unknown[]) =>
          replay({ ...data, returns, offers }).summary.returns?.netCashback ?? '0.00';
        expect(b.heldBack?.total.baseline.netOfReturns?.cashback ?? '0.00').toBe(
          minus(net(unfunded(set)), net(set)),
        );
      }),
      { numRuns: 60 },
    );
  });
});
