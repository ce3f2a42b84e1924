import type { ResolvedOptions } from '../../model/options.js';
import { capAtScale, cashbackDecimal, computeCashback } from '../cashback.js';
import type { CompiledOffer } from '../offer.js';

/**
 * Whether `b` pays at least what `a` pays for every amount `a` accepts. Cashback is
 * `min(round(amount × discount / 100), cap)`, and rounding keeps order, so: `b`'s cap must be
 * at least `a`'s (no cap is the highest), and either `b`'s discount is at least `a`'s, or `b`
 * already pays `a`'s cap at `a`'s `min_amount` (and so at every larger amount).
 */
export function paysAtLeast(a: CompiledOffer, b: CompiledOffer, options: ResolvedOptions): boolean {
  const capA = a.maxCashback === undefined ? undefined : capAtScale(a.maxCashback, options);
  if (b.maxCashback !== undefined) {
    if (capA === undefined || capAtScale(b.maxCashback, options).lt(capA)) return false;
  }
  if (b.discount.decimal.gte(a.discount.decimal)) return true;
  if (capA === undefined || a.minAmount === undefined) return false;
  return capA.lte(cashbackDecimal(computeCashback(a.minAmount, b, options), options.scale));
}
