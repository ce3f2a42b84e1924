import { formatDay } from '../../model/day.js';
import { preparedInvariant } from '../_internals/preparedInvariant.js';
import { describePayment } from '../_internals/replayInput.js';

/**
 * Checks that every payment's `payment_date` is the transaction's day, in the engine's time zone,
 * plus the offer's `warranty` days (docs/concepts.md, Selection, cashback and payment).
 * @param input - what `replay` was given
 * @param result - what it returned
 * @param options - the options `replay` was given (the time zone matters)
 * @throws Error naming the first payment with another date
 * @example
 * ```ts
 * invariants.paymentDateIsDayPlusWarranty(scenario, replay(scenario, { timeZone: 'Asia/Tokyo' }), {
 *   timeZone: 'Asia/Tokyo',
 * });
 * ```
 * @public
 */
export const paymentDateIsDayPlusWarranty = preparedInvariant((prepared, result) => {
  for (const p of result.payments) {
    const offer = prepared.offer(p.offer_id);
    const tx = prepared.paidTransaction(p);
    if (offer === undefined || tx === undefined)
      throw new Error(`${describePayment(p)}: no such offer or transaction`);
    const expected = formatDay(tx.when.day + offer.warranty);
    if (p.payment_date !== expected) {
      throw new Error(
        `${describePayment(p)}: expected ${tx.when.dayText} + ${offer.warranty} days = ${expected}`,
      );
    }
  }
});
