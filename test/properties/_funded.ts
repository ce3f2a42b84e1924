/**
 * Data sets for the properties of funding controls (docs/concepts.md, Funding controls): offers
 * with budgets and caps that run out, many purchases of few customers over a few weeks.
 */
import fc from 'fast-check';
import {
  type OfferJson,
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

/**
 * Scenarios whose offers often have a budget and a cap, with many transactions of few customers
 * at few merchants over three weeks, so that budgets and caps run out; half of them with offers
 * opened to every purchase. `maxReturns` above 0 adds returns.
 */
export function fundedScenarios(maxReturns: number): fc.Arbitrary<Scenario> {
  return fc
    .tuple(
      scenarioArbitrary({
        funding: true,
        customerIds,
        merchants,
        dates,
        maxOffers: 4,
        maxTransactions: 6,
        maxReturns,
        invalidRate: 0.05,
        unknownCustomerRate: 0.05,
        duplicateRate: 0.05,
      }),
      fc.array(
        transactionArbitrary({ customerIds, merchants, dates, offsets: false, wideAmounts: false }),
        { minLength: 4, maxLength: 30 },
      ),
      fc.boolean(),
    )
    .map(([s, more, open]) => ({
      ...s,
      offers: open ? s.offers.map(opened) : s.offers,
      transactions: [
        ...s.transactions,
        ...more.map((t, i) => ({ ...t, transaction_id: `more-${i}` })),
      ],
    }));
}
