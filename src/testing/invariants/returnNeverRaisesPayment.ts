import type { ReplayInput, ReplayOutput } from './types.js';

/**
 * Checks the adjustments against the payments (docs/concepts.md, Returns): each adjusts a payment
 * of the result, of its customer and offer and on its day; its `previous_cashback` is the
 * payment's cashback as the adjustments before it left it; its `cashback` is at least 0 and never
 * more than `previous_cashback`: a return never raises a payment.
 * @param _input - what `replay` was given (not read: the result says it all)
 * @param result - what it returned
 * @throws Error naming the first adjustment that breaks it
 * @example
 * ```ts
 * invariants.returnNeverRaisesPayment(scenario, replay(scenario));
 * ```
 * @public
 */
export function returnNeverRaisesPayment(_input: ReplayInput, result: ReplayOutput): void {
  const current = new Map(result.payments.map((p) => [p.transaction_id, p]));
  const cashback = new Map(result.payments.map((p) => [p.transaction_id, p.cashback]));
  for (const a of result.adjustments ?? []) {
    const fail = (why: string) => new Error(`adjustment of return ${a.return_id}: ${why}`);
    const p = current.get(a.transaction_id);
    if (p === undefined) throw fail(`transaction ${a.transaction_id} has no payment`);
    if (p.customer_id !== a.customer_id || p.offer_id !== a.offer_id) {
      throw fail('customer or offer differ from the payment');
    }
    if (p.payment_date !== a.payment_date) throw fail('payment_date differs from the payment');
    const before = cashback.get(a.transaction_id);
    if (a.previous_cashback !== before) {
      throw fail(`previous_cashback ${a.previous_cashback}, but the payment had ${before}`);
    }
    if (!(a.cashback >= 0)) throw fail(`cashback ${a.cashback} is below 0`);
    if (a.cashback > a.previous_cashback) {
      throw fail(`cashback ${a.cashback} is above previous_cashback ${a.previous_cashback}`);
    }
    cashback.set(a.transaction_id, a.cashback);
  }
}
