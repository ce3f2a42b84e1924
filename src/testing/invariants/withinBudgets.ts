import { describeTotal, fundingTotals, limitAtScale } from '../_internals/fundingTotals.js';
import { prepareInput } from '../_internals/replayInput.js';
import type { InvariantOptions, ReplayInput, ReplayOutput } from './types.js';

/**
 * Checks budgets (docs/concepts.md, Funding controls): for every offer with a `budget` and every
 * period of it (the whole offer, a day, an ISO week or a month of the transactions' days in the
 * engine's time zone), the payments' current cashback (after the adjustments, when the result
 * has them) adds up to at most the budget rounded down to `scale` places.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @param options - the options `replay` was given (time zone, scale)
 * @throws Error naming the offer, the period, the sum and its payments when a budget is exceeded
 * @example
 * ```ts
 * invariants.withinBudgets(scenario, replay(scenario, { timeZone: 'Europe/Paris' }), {
 *   timeZone: 'Europe/Paris',
 * });
 * ```
 * @public
 */
export function withinBudgets(
  input: ReplayInput,
  result: ReplayOutput,
  options: InvariantOptions = {},
): void {
  const prepared = prepareInput(input, options);
  const { scale } = prepared.options;
  for (const t of fundingTotals(prepared, result, 'budget')) {
    const amount = t.limit.amount;
    if (amount === undefined) continue;
    const limit = limitAtScale(amount.decimal, scale);
    if (t.amount.gt(limit)) {
      throw new Error(
        `${describeTotal(t)} add up to ${t.amount.toFixed()}, more than the budget of ${amount.text} (${limit.toFixed(scale)} at ${scale} places)`,
      );
    }
  }
}
