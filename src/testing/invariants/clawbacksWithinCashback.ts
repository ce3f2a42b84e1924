import { arrivalOf } from '../../core/replay/ReturnCursor.js';
import { parseDay } from '../../model/day.js';
import { ExactMoney } from '../../model/money.js';
import { isRecord } from '../../rules/_internals/isRecord.js';
import { prepareInput } from '../_internals/replayInput.js';
import { walkReturns } from '../_internals/returnOutcomes.js';
import type { InvariantOptions, ReplayInput, ReplayOutput } from './types.js';

type Decimal = InstanceType<typeof ExactMoney>;

/**
 * Checks the clawbacks against the payments (docs/concepts.md, Late returns): each claws back a
 * payment of the result (its customer and offer) that was confirmed when the return arrived (its
 * `reported_at`, else its `date`, on or after the start of `payment_date` in the engine's time
 * zone), or that a return decided before it found confirmed; its amount is at least 0; and the
 * clawbacks of a payment never add up to more than its cashback (after the adjustments of
 * returns that came in time): the bank never claims back more than it paid.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @param options - the options `replay` was given (its time zone)
 * @throws Error naming the first clawback that breaks it
 * @example
 * ```ts
 * invariants.clawbacksWithinCashback(scenario, replay(scenario));
 * ```
 * @public
 */
export function clawbacksWithinCashback(
  input: ReplayInput,
  result: ReplayOutput,
  options: InvariantOptions = {},
): void {
  const { timeZone } = prepareInput(input, options).options;
  const payments = new Map(result.payments.map((p) => [p.transaction_id, p]));
  const cashback = new Map(result.payments.map((p) => [p.transaction_id, String(p.cashback)]));
  for (const a of result.adjustments ?? []) cashback.set(a.transaction_id, String(a.cashback));
  const taken = new Map<string, Decimal>();
  // Transactions whose payment a return already found confirmed (a clawback, or late_return).
  const confirmed = new Set<string>();
  for (const r of walkReturns(input, result)) {
    const c = r.clawback;
    if (c === undefined) {
      if (r.code === 'late_return' && isRecord(r.item)) {
        confirmed.add(String(r.item.transaction_id).trim());
      }
      continue;
    }
    const fail = (why: string) =>
      new Error(`clawback of return ${r.key} (transaction '${c.transaction_id}'): ${why}`);
    const p = payments.get(c.transaction_id);
    if (p === undefined) throw fail('the transaction has no payment');
    if (p.customer_id !== c.customer_id || p.offer_id !== c.offer_id) {
      throw fail('customer or offer differ from the payment');
    }
    if (!(c.amount >= 0)) throw fail(`amount ${c.amount} is below 0`);
    const arrival = arrivalOf(r.item, timeZone);
    const paymentDay = parseDay(p.payment_date) ?? Number.NEGATIVE_INFINITY;
    const inTime = arrival === undefined || arrival.day < paymentDay;
    if (inTime && !confirmed.has(c.transaction_id)) {
      throw fail(
        `the return arrived ${arrival === undefined ? 'at no readable instant' : `on ${arrival.dayText}`}, before the payment was confirmed (payment_date ${p.payment_date}): it should have adjusted it`,
      );
    }
    const sum = (taken.get(c.transaction_id) ?? new ExactMoney(0)).plus(String(c.amount));
    const paid = cashback.get(c.transaction_id) ?? '0';
    if (sum.gt(paid)) {
      throw fail(
        `the payment's clawbacks add up to ${sum.toFixed()}, more than its cashback ${paid}`,
      );
    }
    taken.set(c.transaction_id, sum);
    confirmed.add(c.transaction_id);
  }
}
