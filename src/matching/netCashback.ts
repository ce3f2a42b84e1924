import { compareExact, type ExactAmount } from '../model/money.js';
import type { ResolvedOptions } from '../model/options.js';
import { type Cashback, computeCashback } from './cashback.js';
import type { CompiledOffer } from './offer.js';

/**
 * Whether an amount is below the offer's `min_amount` (inclusive bound: the minimum itself
 * qualifies). The one owner of the rule: eligibility and returns both ask it.
 * @param amount - a transaction's amount, or what is left of it after returns
 * @param offer - the offer
 * @returns `true` when the offer has a minimum and the amount is below it
 */
export function belowMinAmount(amount: ExactAmount, offer: CompiledOffer): boolean {
  return offer.minAmount !== undefined && compareExact(amount, offer.minAmount) < 0;
}

/** No cashback. */
const ZERO: Cashback = { units: 0, decimal: undefined, value: 0 };

/**
 * The cashback an offer pays on what is left of a transaction after its returns
 * (docs/concepts.md, Returns): the payment's own computation (discount, `max_cashback`, `scale`,
 * `rounding`) on the net amount; 0 when nothing is left or the net is below `min_amount`.
 * @param net - the net amount, `undefined` when it is 0
 * @param offer - the offer that paid the transaction
 * @param options - scale and rounding
 * @returns the cashback on the net amount
 */
export function netCashback(
  net: ExactAmount | undefined,
  offer: CompiledOffer,
  options: ResolvedOptions,
): Cashback {
  if (net === undefined || belowMinAmount(net, offer)) return ZERO;
  return computeCashback(net, offer, options);
}
