/**
 * Funding controls in replay (docs/concepts.md, Funding controls): budgets and customer caps are
 * kept over generated data sets, returns included; a session fed transactions and returns in any
 * chunks pays as one `replay`; and a payment is cut short by its budget only as the last one the
 * budget pays in its period.
 */
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Adjustment,
  createReplay,
  type Outcome,
  parseTransaction,
  type ReturnError,
  replay,
  resolveOptions,
} from '../../src/index.js';
import { cashbackDecimal, computeCashback } from '../../src/matching/cashback.js';
import { compileOfferSet } from '../../src/matching/compileOffers.js';
import { invariants, type Scenario } from '../../src/testing/index.js';
import { fundedScenarios } from './_funded.js';
import { mergeOrder } from './_mergeOrder.js';
import { type DrawnOptions, optionsArbitrary } from './_options.js';

describe('funding controls in replay', () => {
  it('budgets and customer caps hold, with and without returns, and so does every invariant', () => {
    const scenarios = fc.oneof(fundedScenarios(0), fundedScenarios(12));
    fc.assert(
      fc.property(scenarios, optionsArbitrary, (scenario, options) => {
        // withinBudgets and withinCustomerCaps are part of all.
        invariants.all(scenario, replay(scenario, options), options);
      }),
      { numRuns: 200 },
    );
  });

  it('generated data sets run budgets and caps out, in every period', () => {
    const failed = new Set<string>();
    for (const s of fc.sample(fundedScenarios(0), { numRuns: 300, seed: 5 })) {
      const periods = new Map(
        s.offers.map((o) => [o.offer_id, [o.budget?.period ?? 'offer', o.customer_cap?.period]]),
      );
      for (const e of replay(s).errors) {
        const [, id, check] =
          /offer (\d+) failed its (budget|customer_cap) check/.exec(e.message) ?? [];
        const [budget, cap] = periods.get(Number(id)) ?? [];
        if (check !== undefined) failed.add(`${check} ${check === 'budget' ? budget : cap}`);
      }
    }
    expect([...failed].sort()).toEqual(
      ['budget', 'customer_cap'].flatMap((c) =>
        ['day', 'month', 'offer', 'week'].map((p) => `${c} ${p}`),
      ),
    );
  });

  it('a session fed transactions and returns in any chunks pays and refuses as one replay', () => {
    const scenarios = fc.oneof(fundedScenarios(0), fundedScenarios(12));
    fc.assert(
      fc.property(
        scenarios,
        optionsArbitrary,
        fc.array(fc.nat(), { maxLength: 8 }),
        (scenario, options, cuts) => {
          const whole = replay(scenario, options);
          const { transactions, returns = [], ...data } = scenario;
          const session = createReplay(data, {
            ...options,
            returns: scenario.returns !== undefined,
            maxLatenessDays: Number.POSITIVE_INFINITY,
          });
          const outcomes: Outcome[] = [];
          const adjustments: Adjustment[] = [];
          const returnErrors: ReturnError[] = [];
          for (const run of mergeOrder(transactions, returns, options.timeZone, cuts)) {
            if (run.kind === 'transactions') outcomes.push(...session.push(run.items));
            else {
              for (const o of session.pushReturns(run.items)) {
                if (!o.ok) returnErrors.push(o.error);
                else if (o.kind === 'adjustment') adjustments.push(o.adjustment);
              }
            }
          }
          // replay() lists payments and errors each in transaction order.
          expect(outcomes.flatMap((o) => (o.ok ? [o.payment] : []))).toEqual(whole.payments);
          expect(outcomes.flatMap((o) => (o.ok ? [] : [o.error]))).toEqual(whole.errors);
          expect(adjustments).toEqual(whole.adjustments);
          expect(returnErrors).toEqual(whole.returnErrors);
          expect(session.summary()).toEqual(whole.summary);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('cuts a payment short by its budget only as the last payment of its budget period', () => {
    // Caps by count only: a payment below its full cashback is then one the budget cut.
    const budgetsOnly = fundedScenarios(0).map((s) => ({
      ...s,
      offers: s.offers.map(({ customer_cap, ...o }) =>
        customer_cap?.count === undefined
          ? o
          : { ...o, customer_cap: { count: customer_cap.count, period: customer_cap.period } },
      ),
    }));
    let partial = 0;
    fc.assert(
      fc.property(budgetsOnly, optionsArbitrary, (scenario, options) => {
        partial += partialPaymentsAreLast(scenario, options);
      }),
      { numRuns: 300 },
    );
    // The property is not empty: generated budgets run out.
    expect(partial).toBeGreaterThan(0);
  });
});

/** The period of a budget holding a day: the day, the Monday of its ISO week, its month, all. */
function periodOf(period: string | undefined, day: string): string {
  if (period === 'day') return day;
  if (period === 'month') return day.slice(0, 7);
  if (period === 'week') {
    const d = new Date(`${day}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    return d.toISOString().slice(0, 10);
  }
  return 'offer';
}

/**
 * Checks that every payment below its offer's full cashback (after `max_cashback`) is the last
 * payment of that offer in its budget period, and leaves the budget's payments in that period
 * adding up to exactly the budget rounded down to scale. Returns how many such payments there were.
 */
function partialPaymentsAreLast(scenario: Scenario, options: DrawnOptions): number {
  const resolved = resolveOptions(options);
  const offers = new Map(compileOfferSet(scenario.offers).compiled.map((o) => [o.offerId, o]));
  const json = new Map(scenario.offers.map((o) => [o.offer_id, o]));
  const days = new Map<string, { day: string; amount: Parameters<typeof computeCashback>[0] }>();
  scenario.transactions.forEach((t, i) => {
    const r = parseTransaction(t, i, options.timeZone);
    const key = r.ok ? `${r.value.transactionId}/${r.value.customerId}` : '';
    if (r.ok && !days.has(key))
      days.set(key, { day: r.value.when.dayText, amount: r.value.amount });
  });
  const payments = replay(scenario, options).payments.map((p) => {
    const tx = days.get(`${p.transaction_id}/${p.customer_id}`);
    const offer = offers.get(p.offer_id);
    const budget = json.get(p.offer_id)?.budget;
    if (tx === undefined || offer === undefined) throw new Error('a payment without its parts');
    const full = cashbackDecimal(computeCashback(tx.amount, offer, resolved), resolved.scale);
    const period = budget === undefined ? undefined : periodOf(budget.period, tx.day);
    return { p, budget, period, partial: full.gt(String(p.cashback)) };
  });
  let partial = 0;
  payments.forEach(({ p, budget, period, partial: cut }, i) => {
    if (!cut) return;
    partial += 1;
    expect(budget, `payment of ${p.transaction_id} cut short without a budget`).toBeDefined();
    const same = payments.filter((q) => q.p.offer_id === p.offer_id && q.period === period);
    expect(same.at(-1)?.p, `a payment of offer ${p.offer_id} after the cut one`).toBe(p);
    const sum = same.reduce((total, q) => total.plus(String(q.p.cashback)), new Decimal(0));
    const limit = new Decimal(String(budget?.amount)).toDecimalPlaces(
      resolved.scale,
      Decimal.ROUND_DOWN,
    );
    expect(
      sum.eq(limit),
      `payment ${i}: ${sum.toFixed()} is not the budget ${limit.toFixed()}`,
    ).toBe(true);
  });
  return partial;
}
