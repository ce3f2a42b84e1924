/**
 * Data sets for the properties of funding controls (docs/concepts.md, Funding controls): offers
 * with budgets and caps that run out, many purchases of few customers over a few weeks.
 */
import fc from 'fast-check';
import {
  type OfferJson,
  returnsArbitrary,
  type Scenario,
  scenarioArbitrary,
  transactionArbitrary,
} from '../../src/testing/index.js';

const customerIds = ['c1', 'c2', 'c3'];
const merchants = ['Coffee House', 'Book Nook'];
// Three ISO weeks across the end of a month: every period meets several transactions.
const dates = { from: '2025-03-24', to: '2025-04-13' };

/** The offer without what keeps customers out of it, so that it pays often. */
function opened(o: OfferJson): OfferJson {
  const { age: _a, gender: _g, min_amount: _m, audience: _u, conditions: _c, ...rest } = o;
  return { ...rest, active: true, valid_from: dates.from, valid_to: dates.to };
}

/** Days at the turn of a week (Sunday 30 March, Monday 31) and of a month (Tuesday 1 April). */
const turns = fc.constantFrom('2025-03-30', '2025-03-31', '2025-04-01');

/**
 * Scenarios whose offers often have a budget and a cap, with many transactions of few customers
 * at few merchants over three weeks (half of the added ones on days where a week or a month
 * turns), so that budgets and caps run out; half of them with offers opened to every purchase.
 * `maxReturns` above 0 adds returns of every transaction.
 */
export function fundedScenarios(maxReturns: number): fc.Arbitrary<Scenario> {
  const scenarios = fc
    .tuple(
      scenarioArbitrary({
        funding: true,
        customerIds,
        merchants,
        dates,
        maxOffers: 4,
        maxTransactions: 6,
        invalidRate: 0.05,
        unknownCustomerRate: 0.05,
        duplicateRate: 0.05,
      }),
      fc.array(
        fc.tuple(
          transactionArbitrary({
            customerIds,
            merchants,
            dates,
            offsets: false,
            wideAmounts: false,
          }),
          fc.option(turns, { nil: undefined }),
        ),
        { minLength: 4, maxLength: 30 },
      ),
      fc.boolean(),
    )
    .map(
      ([s, more, open]): Scenario => ({
        ...s,
        offers: open ? s.offers.map(opened) : s.offers,
        transactions: [
          ...s.transactions,
          ...more.map(([t, day], i) => ({
            ...t,
            transaction_id: `more-${i}`,
            date: day === undefined ? t.date : `${day}${t.date.slice(10)}`,
          })),
        ],
      }),
    );
  if (maxReturns === 0) return scenarios;
  return scenarios.chain((s) =>
    returnsArbitrary(s, { maxReturns }).map((returns): Scenario => ({ ...s, returns })),
  );
}
