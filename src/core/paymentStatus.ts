import type { PaymentStatus } from './outcome.js';

/**
 * The status of a payment as of an instant (docs/concepts.md, The lifecycle of a payment):
 * `cancelled` when its cashback is 0; otherwise `pending` while the instant's day (in the
 * engine's zone) is before its payment day, and `confirmed` from the start of that day on.
 * @param cashbackIsZero - whether its cashback as of the instant is 0
 * @param paymentDay - its payment day, a day number
 * @param asOfDay - the instant's day, a day number
 * @returns the status
 */
export function paymentStatus(
  cashbackIsZero: boolean,
  paymentDay: number,
  asOfDay: number,
): PaymentStatus {
  if (cashbackIsZero) return 'cancelled';
  return asOfDay < paymentDay ? 'pending' : 'confirmed';
}
