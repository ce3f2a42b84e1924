import { describeTotal, fundingTotals, limitAtScale } from '../_internals/fundingTotals.js';
import { prepareInput } from '../_internals/replayInput.js';
import type { InvariantOptions, ReplayInput, ReplayOutput } from './types.js';

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
export function withinCustomerCaps(
  input: ReplayInput,
  result: ReplayOutput,
  options: InvariantOptions = {},
): void {
  const prepared = prepareInput(input, options);
  const { scale } = prepared.options;
  for (const t of fundingTotals(prepared, result, 'customer_cap')) {
    const { amount, count } = t.limit;
    if (count !== undefined && t.count > count) {
      throw new Error(
        `${describeTotal(t)} are ${t.count} payments above 0, more than the customer_cap's count of ${count}`,
      );
    }
    if (amount === undefined) continue;
    const limit = limitAtScale(amount.decimal, scale);
    if (t.amount.gt(limit)) {
      throw new Error(
        `${describeTotal(t)} add up to ${t.amount.toFixed()}, more than the customer_cap's amount of ${amount.text} (${limit.toFixed(scale)} at ${scale} places)`,
      );
    }
  }
}
