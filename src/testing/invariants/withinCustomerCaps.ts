import {
  assertAmountWithinLimit,
  describeTotal,
  fundingTotals,
} from '../_internals/fundingTotals.js';
import { preparedInvariant } from '../_internals/preparedInvariant.js';

/**
 * Checks per-customer caps (docs/concepts.md, Funding controls): for every offer with a
 * `customer_cap`, every customer and every period of the cap in the engine's time zone, the
 * payments' current cashback (after the adjustments, when the result has them) adds up to at
 * most the cap's `amount` rounded down to `scale` places, and the payments above 0 number at most
 * its `count`.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @param options - the options `replay` was given (time zone, scale)
 * @throws Error naming the offer, the customer, the period and its payments when a cap is passed
 * @example
 * ```ts
 * invariants.withinCustomerCaps(scenario, replay(scenario));
 * ```
 * @public
 */
export const withinCustomerCaps = preparedInvariant((prepared, result) => {
  for (const t of fundingTotals(prepared, result, 'customer_cap')) {
    const { count } = t.limit;
    if (count !== undefined && t.count > count) {
      throw new Error(
        `${describeTotal(t)} are ${t.count} payments above 0, more than the customer_cap's count of ${count}`,
      );
    }
    assertAmountWithinLimit(t, prepared.options.scale, "the customer_cap's amount");
  }
});
