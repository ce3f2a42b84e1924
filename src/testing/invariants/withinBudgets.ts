import { assertAmountWithinLimit, fundingTotals } from '../_internals/fundingTotals.js';
import { preparedInvariant } from '../_internals/preparedInvariant.js';

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
export const withinBudgets = preparedInvariant((prepared, result) => {
  for (const t of fundingTotals(prepared, result, 'budget')) {
    assertAmountWithinLimit(t, prepared.options.scale, 'the budget');
  }
});
