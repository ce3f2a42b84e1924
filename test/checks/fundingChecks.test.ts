import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkOffers, type OfferCheckRule, replay } from '../../src/index.js';
import {
  customerArbitrary,
  type OfferJson,
  returnsArbitrary,
  transactionArbitrary,
} from '../../src/testing/index.js';
import { offer } from '../fixtures.js';
import { optionsArbitrary } from '../properties/_options.js';

type Raw = Record<string, unknown>;

/** The findings of one rule on these offers, as `path: message`. */
function found(rule: OfferCheckRule, offers: readonly Raw[], scale?: number): string[] {
  const { findings } = checkOffers(offers, scale === undefined ? {} : { scale });
  return findings.filter((f) => f.rule === rule).map((f) => `${f.path}: ${f.message}`);
}

describe('zero_funding', () => {
  test('is an error when a budget or a cap amount rounds down to 0 at scale, and not at 0.01', () => {
    const o = offer({
      budget: { amount: '0.004', period: 'day' },
      customer_cap: { amount: '0.009', period: 'week' },
    });
    expect(found('zero_funding', [o])).toEqual([
      'customer_cap.amount: customer_cap.amount 0.009 per week rounds down to 0 at 2 decimal places: every purchase would fail the customer_cap check (no_offer)',
      'budget.amount: budget.amount 0.004 per day rounds down to 0 at 2 decimal places: every purchase would fail the budget check (no_offer)',
    ]);
    expect(checkOffers([o]).counts.error).toBe(2);
    expect(found('zero_funding', [o], 3)).toEqual([]);
    expect(found('zero_funding', [offer({ budget: { amount: '0.01' } })])).toEqual([]);
  });
});

describe('budget_below_payment', () => {
  test('warns with the figures when the budget is below max_cashback', () => {
    const o = offer({ max_cashback: 5, budget: { amount: '4.999', period: 'month' } });
    expect(found('budget_below_payment', [o])).toEqual([
      'budget.amount: budget 4.999 per month is below the largest single payment 5.00 (max_cashback 5): one purchase can spend all of it, and the payment that reaches it is paid in part',
    ]);
    expect(checkOffers([o]).counts).toEqual({ error: 0, warning: 1, info: 0 });
    // At scale, 5.001 is 5.00: one payment of max_cashback is possible in full.
    expect(
      found('budget_below_payment', [offer({ max_cashback: 5, budget: { amount: '5.001' } })]),
    ).toEqual([]);
  });

  test('without max_cashback, bounds a payment by the discount of the largest amount accepted', () => {
    expect(found('budget_below_payment', [offer({ budget: { amount: 1000 } })])).toEqual([
      'budget.amount: budget 1000 for the whole offer is below the largest single payment 50000000000.00 (discount 5% of the largest amount 1000000000000): one purchase can spend all of it, and the payment that reaches it is paid in part',
    ]);
    expect(found('budget_below_payment', [offer({ budget: { amount: 5e10 } })])).toEqual([]);
  });

  test("takes the customer cap's amount as a bound too, and leaves a zero budget to zero_funding", () => {
    const capped = offer({
      max_cashback: 10,
      budget: { amount: 3 },
      customer_cap: { amount: '2.5', period: 'day' },
    });
    expect(found('budget_below_payment', [capped])).toEqual([]);
    expect(
      found('budget_below_payment', [
        offer({
          max_cashback: 10,
          budget: { amount: 2 },
          customer_cap: { amount: 3, period: 'day' },
        }),
      ]),
    ).toEqual([
      'budget.amount: budget 2 for the whole offer is below the largest single payment 3.00 (customer_cap.amount 3): one purchase can spend all of it, and the payment that reaches it is paid in part',
    ]);
    expect(found('budget_below_payment', [offer({ budget: { amount: '0.001' } })])).toEqual([]);
  });
});

describe('cap_unreachable', () => {
  test("the cap's amount never limits when a budget holding its period has no more", () => {
    const o = (budgetPeriod: string, capPeriod: string, cap = 10) =>
      offer({
        budget: { amount: 10, period: budgetPeriod },
        customer_cap: { amount: cap, period: capPeriod },
      });
    expect(found('cap_unreachable', [o('month', 'day')])).toEqual([
      "customer_cap.amount: customer_cap.amount 10 per day never limits a payment: the budget of 10 per month, shared by every customer, holds the cap's period and runs out no later",
    ]);
    expect(found('cap_unreachable', [o('offer', 'week', 12)])).toHaveLength(1);
    expect(found('cap_unreachable', [o('week', 'week')])).toHaveLength(1);
    // A month does not hold an ISO week, a day does not hold a month, and a smaller cap acts.
    expect(found('cap_unreachable', [o('month', 'week')])).toEqual([]);
    expect(found('cap_unreachable', [o('day', 'month')])).toEqual([]);
    expect(found('cap_unreachable', [o('offer', 'day', 9.99)])).toEqual([]);
  });

  test("the cap's amount never limits when count payments of at most max_cashback add up to no more", () => {
    const o = (amount: number) =>
      offer({ max_cashback: 4, customer_cap: { amount, count: 3, period: 'month' } });
    expect(found('cap_unreachable', [o(12)])).toEqual([
      'customer_cap.amount: customer_cap.amount 12 per month never limits a payment: its count of 3 payments of at most 4.00 each (max_cashback 4) add up to no more',
    ]);
    expect(found('cap_unreachable', [o(11.99)])).toEqual([]);
    // Without max_cashback a payment may be 5% of 10^12.
    expect(
      found('cap_unreachable', [offer({ customer_cap: { amount: 12, count: 3, period: 'day' } })]),
    ).toEqual([]);
  });

  test("the count is never reached when the cap's amount or a budget holding its period has fewer cents", () => {
    expect(
      found('cap_unreachable', [
        offer({ customer_cap: { amount: '0.05', count: 6, period: 'day' } }),
      ]),
    ).toEqual([
      "customer_cap.count: customer_cap.count 6 per day is never reached: every payment is at least 0.01, and the cap's amount, 0.05, runs out after 5 at most",
    ]);
    expect(
      found('cap_unreachable', [
        offer({ customer_cap: { amount: '0.05', count: 5, period: 'day' } }),
      ]),
    ).toEqual([]);
    const budgeted = (period: string) =>
      offer({ budget: { amount: '0.02', period }, customer_cap: { count: 3, period: 'week' } });
    expect(found('cap_unreachable', [budgeted('month')])).toEqual([]);
    expect(found('cap_unreachable', [budgeted('offer')])).toEqual([
      'customer_cap.count: customer_cap.count 3 per week is never reached: every payment is at least 0.01, and the budget for the whole offer, 0.02, runs out after 2 at most',
    ]);
    expect(checkOffers([budgeted('offer')]).counts).toEqual({ error: 0, warning: 2, info: 0 });
  });
});

describe('always_loses with funding', () => {
  test('an offer with a budget or a cap never makes another always lose: it can run out', () => {
    const loser = offer({ offer_id: 2 });
    const winner = (over: Raw) => offer({ discount: 10, ...over });
    const fired = (offers: Raw[]) =>
      checkOffers(offers).findings.filter((f) => f.rule === 'always_loses').length;
    expect(fired([winner({}), loser])).toBe(1);
    expect(fired([winner({ budget: { amount: 1000 } }), loser])).toBe(0);
    expect(fired([winner({ customer_cap: { count: 1, period: 'day' } }), loser])).toBe(0);
    expect(fired([winner({}), offer({ offer_id: 2, budget: { amount: 1000 } })])).toBe(1);
  });
});

const dates = { from: '2025-03-24', to: '2025-04-13' };
const period = fc.constantFrom('offer', 'day', 'week', 'month');
/** Figures from a small pool, so that limits meet each other and max_cashback often. */
const figure = fc.constantFrom(0.03, 0.5, 1, 2, 5, 10);

/** Open offers at one merchant whose budgets and caps are drawn to meet, and many purchases. */
const bindingData = fc
  .record({
    offers: fc.uniqueArray(
      fc.record({
        offer_id: fc.integer({ min: 1, max: 4 }),
        discount: fc.constantFrom(5, 10, 50, 100),
        max_cashback: fc.option(figure, { nil: undefined }),
        budget: fc.option(fc.record({ amount: figure, period }), { nil: undefined }),
        cap: fc.record({
          amount: fc.option(figure, { nil: undefined }),
          count: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
          period,
        }),
      }),
      { selector: (o) => o.offer_id, minLength: 1, maxLength: 3 },
    ),
    customers: fc.tuple(
      customerArbitrary({
        customerIds: ['c1'],
        birthdays: { from: '1970-01-01', to: '2000-12-31' },
      }),
      customerArbitrary({
        customerIds: ['c2'],
        birthdays: { from: '1970-01-01', to: '2000-12-31' },
      }),
    ),
    transactions: fc.array(
      transactionArbitrary({
        customerIds: ['c1', 'c2'],
        merchants: ['Coffee House'],
        dates,
        offsets: false,
        wideAmounts: false,
      }),
      { minLength: 5, maxLength: 40 },
    ),
  })
  .map(({ offers, customers, transactions }) => ({
    offers: offers.map(({ cap, max_cashback, budget, ...o }): OfferJson => {
      const { amount, count } = cap;
      const customer_cap =
        amount === undefined && count === undefined
          ? { count: 1, period: cap.period }
          : {
              ...(amount === undefined ? {} : { amount }),
              ...(count === undefined ? {} : { count }),
              period: cap.period,
            };
      return {
        ...o,
        name: '',
        merchant_name: 'Coffee House',
        warranty: 10,
        valid_from: dates.from,
        valid_to: dates.to,
        customer_cap,
        ...(max_cashback === undefined ? {} : { max_cashback }),
        ...(budget === undefined ? {} : { budget }),
      };
    }),
    customers,
    history: [],
    transactions: transactions.map((t, i) => ({ ...t, transaction_id: `t${i}` })),
  }))
  .chain((s) => returnsArbitrary(s, { maxReturns: 6 }).map((returns) => ({ ...s, returns })));

/** The offer without the part of its cap a finding names (the whole cap when nothing is left). */
function withoutPart(o: OfferJson, path: string | undefined): OfferJson {
  const { customer_cap: cap, ...rest } = o;
  if (cap === undefined) return o;
  const { amount, count, period } = cap;
  const kept = path === 'customer_cap.amount' ? { count } : { amount };
  if (kept.count === undefined && kept.amount === undefined) return rest;
  return { ...rest, customer_cap: { ...kept, period } };
}

describe('the funding findings are true', () => {
  test('without the part of a cap that cap_unreachable names, replay pays, adjusts and refuses the same; a zero_funding offer never pays', () => {
    const fired = new Set<string>();
    fc.assert(
      fc.property(bindingData, optionsArbitrary, (s, options) => {
        const { findings } = checkOffers(s.offers, options);
        const before = replay(s, options);
        for (const f of findings) {
          const index = f.offers[0]?.index ?? -1;
          const id = s.offers[index]?.offer_id;
          if (f.rule === 'zero_funding') {
            expect(before.payments.filter((p) => p.offer_id === id)).toEqual([]);
          }
          if (f.rule !== 'cap_unreachable') continue;
          fired.add(f.message.replace(/[0-9.]+/g, 'N').replace(/ (per|for the whole) \w+/g, ''));
          const offers = s.offers.map((o, i) => (i === index ? withoutPart(o, f.path) : o));
          const after = replay({ ...s, offers }, options);
          expect(after.payments, f.message).toEqual(before.payments);
          expect(after.adjustments, f.message).toEqual(before.adjustments);
          expect(after.errors.map((e) => [e.key, e.code])).toEqual(
            before.errors.map((e) => [e.key, e.code]),
          );
        }
      }),
      { numRuns: 300 },
    );
    // Each of the three reasons came up.
    expect(fired.size, [...fired].join('\n')).toBeGreaterThanOrEqual(3);
  });
});
