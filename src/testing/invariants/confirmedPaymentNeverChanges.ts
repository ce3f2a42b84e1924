import { arrivalOf } from '../../core/replay/ReturnCursor.js';
import { parseDay } from '../../model/day.js';
import { isRecord } from '../../rules/_internals/isRecord.js';
import { prepareInput } from '../_internals/replayInput.js';
import { walkReturns } from '../_internals/returnOutcomes.js';
import type { InvariantOptions, ReplayInput, ReplayOutput } from './types.js';

/**
 * Checks that a confirmed payment never changes (docs/concepts.md, Late returns): every
 * adjustment comes from a return that arrived (its `reported_at`, else its `date`, in the
 * engine's time zone) before the start of its payment's `payment_date`, and no adjustment follows
 * a return that found the payment confirmed (a clawback, or `late_return`), even one decided
 * after it with an earlier `reported_at`. A return that arrives on or after that day finds the
 * payment paid out: it may claw back, or be answered `late_return`, but never lower the payment,
 * nor so give its budget anything back.
 * @param input - what `replay` was given (an engine's returns with `reported_at` set to when they
 *   were added)
 * @param result - what it returned
 * @param options - the options `replay` was given (its time zone)
 * @throws Error naming the first adjustment of a confirmed payment
 * @example
 * ```ts
 * invariants.confirmedPaymentNeverChanges(scenario, replay(scenario, { timeZone: 'Europe/Paris' }), {
 *   timeZone: 'Europe/Paris',
 * });
 * ```
 * @public
 */
export function confirmedPaymentNeverChanges(
  input: ReplayInput,
  result: ReplayOutput,
  options: InvariantOptions = {},
): void {
  const { timeZone } = prepareInput(input, options).options;
  // The transactions whose payment a return found confirmed, and that return.
  const confirmed = new Map<string, string>();
  for (const r of walkReturns(input, result)) {
    const a = r.adjustment;
    const id = isRecord(r.item) ? String(r.item.transaction_id).trim() : '';
    if (r.clawback !== undefined || r.code === 'late_return') confirmed.set(id, r.key);
    if (a === undefined) continue;
    const fail = (why: string) =>
      new Error(`adjustment of return ${r.key} (transaction '${a.transaction_id}'): ${why}`);
    const arrival = arrivalOf(r.item, timeZone);
    if (arrival === undefined) throw fail('the return adjusted a payment, but it does not read');
    const found = confirmed.get(a.transaction_id);
    if (found !== undefined) {
      throw fail(
        `return ${found}, decided before it, found the payment confirmed, and it changed it from ${a.previous_cashback} to ${a.cashback}: a confirmed payment never changes`,
      );
    }
    const paymentDay = parseDay(a.payment_date);
    if (paymentDay === undefined) throw fail(`payment_date '${a.payment_date}' is not a day`);
    if (arrival.day >= paymentDay) {
      throw fail(
        `the return arrived on ${arrival.dayText}, once the payment was confirmed (payment_date ${a.payment_date}), and changed it from ${a.previous_cashback} to ${a.cashback}: a confirmed payment never changes`,
      );
    }
  }
}
