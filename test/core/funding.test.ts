import { describe, expect, test } from 'vitest';
import { explain } from '../../src/core/explain.js';
import { replay } from '../../src/core/replay/replay.js';
import {
  compileOfferSet,
  compileOffers,
  OfferValidationError,
} from '../../src/matching/compileOffers.js';
import { customer, offer, tx } from '../fixtures.js';

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

function paid(r: ReturnType<typeof replay>) {
  return r.payments.map((p) => [p.transaction_id, p.offer_id, p.cashback]);
}

function failedChecks(r: ReturnType<typeof replay>) {
  return r.errors.map((e) => [e.key, e.code, /failed its (\w+) check/.exec(e.message)?.[1]]);
}

describe('funding controls: offer fields', () => {
  test('budget and customer_cap load, and every problem of them is reported at once', () => {
    const set = compileOfferSet([
      offer({
        budget: { amount: '100.005', period: 'month' },
        customer_cap: { count: 2, period: 'week' },
      }),
    ]);
    expect(set.compiled[0]?.budget).toMatchObject({ period: 'month', count: undefined });
    expect(set.compiled[0]?.customerCap).toMatchObject({ period: 'week', count: 2 });
    expect(compileOfferSet([offer({ budget: { amount: 5 } })]).compiled[0]?.budget?.period).toBe(
      'offer',
    );
    try {
      compileOffers([
        offer({
          budget: { amount: 0, period: 'year', amout: 1 },
          customer_cap: { period: 'day' },
        }),
      ]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(OfferValidationError);
      const paths = (e as OfferValidationError).issues.map((i) => i.path);
      expect(paths).toEqual(
        expect.arrayContaining(['budget.amount', 'budget.period', 'budget.amout', 'customer_cap']),
      );
    }
  });

  test('a cap needs its period', () => {
    expect(() => compileOffers([offer({ customer_cap: { count: 1 } })])).toThrow(
      /customer_cap\.period/,
    );
  });
});

describe('funding controls: budgets', () => {
  test('the last payment is partial, the next fails the budget check', () => {
    const r = replay({
      offers: [offer({ discount: 10, budget: { amount: 10 } })],
      customers: [customer()],
      transactions: txs([40, 40, 40, 40]),
    });
    expect(paid(r)).toEqual([
      ['t1', 1, 4],
      ['t2', 1, 4],
      ['t3', 1, 2],
    ]);
    expect(failedChecks(r)).toEqual([['t4', 'no_offer', 'budget']]);
  });

  test("on_exhaust 'skip': a budget with less left than the payment fails its check, and the transaction is decided as if the offer were absent", () => {
    const skipping = offer({ discount: 10, budget: { amount: 10, on_exhaust: 'skip' } });
    const r = replay({
      offers: [skipping, offer({ offer_id: 2, discount: 1 })],
      customers: [customer()],
      transactions: txs([40, 40, 40, 10]),
    });
    // 2.00 left of the budget: the third purchase (4.00) falls to offer 2; the fourth (1.00) fits.
    expect(paid(r)).toEqual([
      ['t1', 1, 4],
      ['t2', 1, 4],
      ['t3', 2, 0.4],
      ['t4', 1, 1],
    ]);
    const alone = replay({
      offers: [skipping],
      customers: [customer()],
      transactions: txs([40, 40, 40]),
    });
    expect(failedChecks(alone)).toEqual([['t3', 'no_offer', 'budget']]);
    // After the customer cap: a cap leaving 1.50 makes the payment 1.50, which 2.00 covers.
    const capped = replay({
      offers: [
        offer({
          discount: 10,
          budget: { amount: 10, on_exhaust: 'skip' },
          customer_cap: { amount: 9.5, period: 'offer' },
        }),
      ],
      customers: [customer()],
      transactions: txs([40, 40, 40]),
    });
    expect(paid(capped)).toEqual([
      ['t1', 1, 4],
      ['t2', 1, 4],
      ['t3', 1, 1.5],
    ]);
    expect(() => compileOffers([offer({ budget: { amount: 1, on_exhaust: 'never' } })])).toThrow(
      /budget\.on_exhaust/,
    );
  });

  test('a budget per day starts again the next day, and remainders round down to scale', () => {
    const r = replay({
      offers: [offer({ discount: 10, budget: { amount: '5.005', period: 'day' } })],
      customers: [customer()],
      transactions: [
        ...txs([40, 40]),
        tx({ transaction_id: 'x', amount: 40, date: '2025-06-02T10:00:00' }),
      ],
    });
    expect(paid(r)).toEqual([
      ['t1', 1, 4],
      ['t2', 1, 4],
      ['x', 1, 1],
    ]);
  });

  test('budgets are shared by every customer, caps are not', () => {
    const r = replay({
      offers: [
        offer({
          discount: 10,
          budget: { amount: 6 },
          customer_cap: { amount: 3, period: 'offer' },
        }),
      ],
      customers: [customer(), customer({ customer_id: 'c2' }), customer({ customer_id: 'c3' })],
      transactions: [
        ...txs([40, 40]),
        tx({ transaction_id: 'u1', customer_id: 'c2', amount: 20, date: '2025-06-05T09:00:00' }),
        tx({ transaction_id: 'v1', customer_id: 'c3', amount: 20, date: '2025-06-06T09:00:00' }),
      ],
    });
    expect(paid(r)).toEqual([
      ['t1', 1, 3],
      ['u1', 1, 2],
      ['v1', 1, 1],
    ]);
    expect(failedChecks(r)).toEqual([['t2', 'no_offer', 'customer_cap']]);
  });

  test('selection compares the cashback as paid', () => {
    const r = replay({
      offers: [
        offer({ offer_id: 1, discount: 20, budget: { amount: 9 } }),
        offer({ offer_id: 2, discount: 10 }),
      ],
      customers: [customer()],
      transactions: txs([40, 40]),
    });
    // t1: 8 against 4; t2: 1 left of the budget against 4.
    expect(paid(r)).toEqual([
      ['t1', 1, 8],
      ['t2', 2, 4],
    ]);
  });
});

describe('funding controls: caps', () => {
  test('a count per ISO week: Monday to Sunday', () => {
    const r = replay({
      offers: [offer({ discount: 10, customer_cap: { count: 2, period: 'week' } })],
      customers: [customer()],
      // 2025-06-02 is a Monday: t1..t7 are one week, t8 the next Monday.
      transactions: txs([10, 10, 10, 10, 10, 10, 10, 10]),
    });
    expect(paid(r).map((p) => p[0])).toEqual(['t1', 't2', 't8']);
    expect(r.errors.every((e) => e.message.includes('customer_cap'))).toBe(true);
  });

  test('a month cap by amount', () => {
    const r = replay({
      offers: [
        offer({
          discount: 10,
          valid_to: '2025-12-31',
          customer_cap: { amount: 5, period: 'month' },
        }),
      ],
      customers: [customer()],
      transactions: [
        tx({ transaction_id: 'a', amount: 40, date: '2025-06-29T09:00:00' }),
        tx({ transaction_id: 'b', amount: 40, date: '2025-06-30T23:59:59' }),
        tx({ transaction_id: 'c', amount: 40, date: '2025-07-01T00:00:00' }),
      ],
    });
    expect(paid(r)).toEqual([
      ['a', 1, 4],
      ['b', 1, 1],
      ['c', 1, 4],
    ]);
  });
});

describe('funding controls: returns give back', () => {
  test('a return that cancels a payment frees its budget and its count', () => {
    const r = replay({
      offers: [
        offer({ discount: 10, budget: { amount: 4 }, customer_cap: { count: 1, period: 'offer' } }),
      ],
      customers: [customer()],
      transactions: txs([40, 40, 40]),
      returns: [{ return_id: 'r1', transaction_id: 't1', date: '2025-06-03T12:00:00' }],
    });
    // t2 comes before the return (t2 fails the cap); t3 after it.
    expect(paid(r)).toEqual([
      ['t1', 1, 4],
      ['t3', 1, 4],
    ]);
    expect(r.adjustments).toHaveLength(1);
  });

  test('a partial return gives back only what it took', () => {
    const r = replay({
      offers: [offer({ discount: 10, budget: { amount: 6 } })],
      customers: [customer()],
      transactions: txs([40, 40, 40]),
      returns: [{ return_id: 'r1', transaction_id: 't1', amount: 30, date: '2025-06-03T12:00:00' }],
    });
    // t1 pays 4 then 1; t2 (before the return) pays the 2 left; t3 gets the 3 given back.
    expect(paid(r)).toEqual([
      ['t1', 1, 4],
      ['t2', 1, 2],
      ['t3', 1, 3],
    ]);
  });
});

describe('funding controls: explain', () => {
  test('names the check that failed and what was left', () => {
    const offers = [offer({ discount: 10, customer_cap: { amount: 5, count: 3, period: 'day' } })];
    const e = explain(tx({ amount: 40 }), { offers, customer: customer() });
    expect(e.candidates[0]).toMatchObject({
      matched: true,
      cashback: 4,
      funding: { cap_left: 5, cap_count_left: 3 },
    });
  });

  test('with what was spent: the check that fails, its detail and what was left', () => {
    const offers = [
      offer({ offer_id: 1, discount: 10, budget: { amount: 10, period: 'month' } }),
      offer({ offer_id: 2, discount: 10, customer_cap: { count: 2, period: 'week' } }),
      offer({ offer_id: 3, discount: 10, budget: { amount: 10 } }),
    ];
    const e = explain(tx({ amount: 40 }), {
      offers,
      customer: customer(),
      spent: { budgets: { 1: 10, 3: '8.5' }, caps: { 2: { count: 2 } } },
    });
    expect(e.candidates).toEqual([
      {
        offer_id: 1,
        matched: false,
        failed: {
          check: 'budget',
          detail: 'the budget of 10 has nothing left in 2025-06-01..2025-06-30',
        },
        funding: { budget_left: 0 },
      },
      {
        offer_id: 2,
        matched: false,
        failed: {
          check: 'customer_cap',
          detail: "the customer has had the cap's 2 payment(s) in 2025-06-02..2025-06-08",
        },
        funding: { cap_count_left: 0 },
      },
      {
        offer_id: 3,
        matched: true,
        cashback: 1.5,
        payment_date: '2025-06-16',
        funding: { budget_left: 1.5 },
      },
    ]);
    expect(e.outcome).toMatchObject({ ok: true, payment: { offer_id: 3, cashback: 1.5 } });
    expect(() =>
      explain(tx(), { offers, customer: customer(), spent: { budgets: { 1: -1 } } }),
    ).toThrow(/context.spent.budgets.1 must be an amount/);
  });
});
