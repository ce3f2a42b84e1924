/**
 * The invariants of funding controls of `cashback-engine/testing` (docs/concepts.md, Funding
 * controls): each throws for a result that passes a budget or a cap of its input, in the period
 * the engine's time zone gives, and passes one that keeps them.
 */
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/index.js';
import { invariants } from '../../src/testing/index.js';
import { customer, offer, tx } from '../fixtures.js';

// 2025-06-08 is a Sunday: t1 and t2 are in two ISO weeks of one month, 4.00 of cashback each.
const transactions = [
  tx({ transaction_id: 't1', date: '2025-06-08T22:30:00Z', amount: 40 }),
  tx({ transaction_id: 't2', date: '2025-06-09T09:00:00Z', amount: 40 }),
];
const unfunded = {
  offers: [offer({ discount: 10 })],
  customers: [customer(), customer({ customer_id: 'c2' })],
  transactions,
};
const result = replay(unfunded);
/** The same data with these fields on its offer: the result is checked against it. */
const funded = (over: Record<string, unknown>) => ({
  ...unfunded,
  offers: [offer({ discount: 10, ...over })],
});

describe('withinBudgets', () => {
  it('holds budgets per period of the ISO week, and the whole offer', () => {
    expect(result.payments.map((p) => p.cashback)).toEqual([4, 4]);
    for (const period of ['day', 'week']) {
      expect(() =>
        invariants.withinBudgets(funded({ budget: { amount: 5, period } }), result),
      ).not.toThrow();
    }
    expect(() => invariants.withinBudgets(funded({ budget: { amount: 5 } }), result)).toThrow(
      "the payments of offer 1 in the whole offer (transactions 't1', 't2') add up to 8, more than the budget of 5 (5.00 at 2 places)",
    );
    expect(() =>
      invariants.withinBudgets(funded({ budget: { amount: 5, period: 'month' } }), result),
    ).toThrow('in 2025-06');
  });

  it("reads the days in the engine's time zone", () => {
    const weekly = funded({ budget: { amount: 5, period: 'week' } });
    // 22:30 UTC on Sunday is 00:30 on Monday in Paris: both payments in the week of 2025-06-09.
    const paris = replay(unfunded, { timeZone: 'Europe/Paris' });
    expect(() => invariants.withinBudgets(weekly, paris, { timeZone: 'Europe/Paris' })).toThrow(
      'in week of 2025-06-09',
    );
  });

  it('rounds the budget down to scale, and counts current cashback after adjustments', () => {
    expect(() =>
      invariants.withinBudgets(funded({ budget: { amount: '8.009' } }), result),
    ).not.toThrow();
    expect(() => invariants.withinBudgets(funded({ budget: { amount: '7.999' } }), result)).toThrow(
      'more than the budget of 7.999 (7.99 at 2 places)',
    );
    const lowered = {
      ...result,
      adjustments: [
        {
          return_id: 'r1',
          transaction_id: 't2',
          customer_id: 'c1',
          offer_id: 1,
          previous_cashback: 4,
          cashback: 1,
          payment_date: '2025-06-23',
        },
      ],
    };
    expect(() =>
      invariants.withinBudgets(funded({ budget: { amount: 5 } }), lowered),
    ).not.toThrow();
  });
});

describe('withinCustomerCaps', () => {
  it('holds amount and count per customer and period; a payment at 0 does not count', () => {
    const cap = (c: Record<string, unknown>) => funded({ customer_cap: { period: 'month', ...c } });
    expect(() => invariants.withinCustomerCaps(cap({ count: 1 }), result)).toThrow(
      "the payments of customer 'c1' of offer 1 in 2025-06 (transactions 't1', 't2') are 2 payments above 0, more than the customer_cap's count of 1",
    );
    expect(() => invariants.withinCustomerCaps(cap({ amount: '7.99' }), result)).toThrow(
      "add up to 8, more than the customer_cap's amount of 7.99 (7.99 at 2 places)",
    );
    expect(() => invariants.withinCustomerCaps(cap({ count: 2, amount: 8 }), result)).not.toThrow();
    const twoCustomers = {
      ...cap({ count: 1 }),
      transactions: [transactions[0], { ...transactions[1], customer_id: 'c2' }],
    };
    expect(() => invariants.withinCustomerCaps(twoCustomers, replay(twoCustomers))).not.toThrow();
    const cancelled = {
      ...result,
      adjustments: [
        {
          return_id: 'r1',
          transaction_id: 't1',
          customer_id: 'c1',
          offer_id: 1,
          previous_cashback: 4,
          cashback: 0,
          payment_date: '2025-06-22',
        },
      ],
    };
    expect(() => invariants.withinCustomerCaps(cap({ count: 1 }), cancelled)).not.toThrow();
  });

  it('is part of invariants.all, with withinBudgets', () => {
    expect(() =>
      invariants.all(funded({ customer_cap: { count: 1, period: 'day' } }), result),
    ).not.toThrow();
    expect(() => invariants.all(funded({ budget: { amount: 1 } }), result)).toThrow(
      'more than the budget of 1',
    );
  });
});
