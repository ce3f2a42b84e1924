import type { ResolvedOptions } from '../../model/options.js';
import { capAtScale, cashbackDecimal, computeCashback } from '../cashback.js';
import type { CompiledOffer, CompiledReward } from '../offer.js';

/** Whether a reward never pays less on a larger amount: all but `whole` tiers, whose rate may drop. */
function rising(reward: CompiledReward): boolean {
  return reward.type !== 'tiers' || reward.mode === 'marginal';
}

/** Whether reward `b` pays at least reward `a` on every amount, before rounding and caps. */
function rewardAtLeast(a: CompiledReward, b: CompiledReward): boolean {
  if (a.type === 'percent' && b.type === 'percent') {
    if (!b.rate.decimal.gte(a.rate.decimal)) return false;
    // b's eligible part is at least a's.
    return (
      b.maxEligible === undefined ||
      (a.maxEligible !== undefined && b.maxEligible.decimal.gte(a.maxEligible.decimal))
    );
  }
  return a.type === 'fixed' && b.type === 'fixed' && b.amount.decimal.gte(a.amount.decimal);
}

/**
 * Whether `b` pays at least what `a` pays for every amount `a` accepts. Cashback is the reward
 * rounded once, then capped, and rounding keeps order, so: `b`'s cap must be at least `a`'s (no
 * cap is the highest), and either `b`'s reward pays at least `a`'s on every amount (a percentage
 * at a rate and eligible part at least `a`'s, a fixed amount at least `a`'s), or `b` already pays
 * `a`'s cap at `a`'s `min_amount` and never pays less on a larger amount. Other pairs of rewards
 * are not compared: the answer may be a false "no", never a false "yes".
 */
export function paysAtLeast(a: CompiledOffer, b: CompiledOffer, options: ResolvedOptions): boolean {
  const capA = a.maxCashback === undefined ? undefined : capAtScale(a.maxCashback, options);
  if (b.maxCashback !== undefined) {
    if (capA === undefined || capAtScale(b.maxCashback, options).lt(capA)) return false;
  }
  if (rewardAtLeast(a.reward, b.reward)) return true;
  if (capA === undefined || a.minAmount === undefined || !rising(b.reward)) return false;
  return capA.lte(cashbackDecimal(computeCashback(a.minAmount, b, options), options.scale));
}
