import { arrivalOf } from '../../core/replay/ReturnCursor.js';
import { parseDay } from '../../model/day.js';
import { assertAmountWithinLimit, fundingTotals } from '../_internals/fundingTotals.js';
import { prepareInput, type ReplayPayment } from '../_internals/replayInput.js';
import { walkReturns } from '../_internals/returnOutcomes.js';
import type { InvariantOptions, ReplayInput, ReplayOutput } from './types.js';

/**
 * Each payment with the cashback that left the bank on its payment day: as decided, lowered only
 * by the adjustments of returns that arrived before that day. An adjustment that arrived later
 * (which `confirmedPaymentNeverChanges` refuses) does not bring back what was paid, nor does a
 * clawback: the bank claims that from the customer, the budget spent it.
 */
function paidOut(
  input: ReplayInput,
  result: ReplayOutput,
  timeZone: string,
): Map<ReplayPayment, string> {
  const byTransaction = new Map(result.payments.map((p) => [p.transaction_id, p]));
  const paid = new Map(result.payments.map((p) => [p, String(p.cashback)]));
  for (const r of walkReturns(input, result)) {
    const a = r.adjustment;
    const p = a === undefined ? undefined : byTransaction.get(a.transaction_id);
    if (a === undefined || p === undefined) continue;
    const arrival = arrivalOf(r.item, timeZone);
    const paymentDay = parseDay(p.payment_date) ?? Number.NEGATIVE_INFINITY;
    if (arrival !== undefined && arrival.day < paymentDay) paid.set(p, String(a.cashback));
  }
  return paid;
}

/**
 * Checks that a budget never pays more than its amount, clawbacks included (docs/concepts.md,
 * Late returns): for every offer with a `budget` and every period of it, what its payments paid
 * out on their payment days (their cashback after the adjustments of returns that arrived before
 * that day; neither a clawback nor a later change gives anything back) adds up to at most the
 * budget rounded down to `scale`. `withinBudgets` reads the payments as they end; this reads
 * them as the bank paid them, so a build that lowers a confirmed payment, or gives a budget back
 * for a clawback, and pays again from it, is caught.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @param options - the options `replay` was given (time zone, scale)
 * @throws Error naming the offer, the period, the sum and its payments when a budget paid more
 * @example
 * ```ts
 * invariants.budgetNeverPaysPastItsAmount(scenario, replay(scenario));
 * ```
 * @public
 */
export function budgetNeverPaysPastItsAmount(
  input: ReplayInput,
  result: ReplayOutput,
  options: InvariantOptions = {},
): void {
  const prepared = prepareInput(input, options);
  const paid = paidOut(input, result, prepared.options.timeZone);
  for (const t of fundingTotals(prepared, result, 'budget', paid)) {
    assertAmountWithinLimit(
      t,
      prepared.options.scale,
      'the budget (as paid out, clawbacks included)',
    );
  }
}
