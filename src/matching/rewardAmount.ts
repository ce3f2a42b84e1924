import {
  compareExact,
  type ExactAmount,
  ExactMoney,
  type MoneyValue,
  pow10,
  roundQuotient,
} from '../model/money.js';
import type { ResolvedOptions } from '../model/options.js';
import type { CompiledReward, CompiledTier } from './offer.js';

// What a reward pays on an amount before `max_cashback` and funding (docs/concepts.md, Rewards):
// the exact value by decimal.js, the reference, and the same rounded to `scale` on safe integers
// when that is exact. A property test (test/matching/rewardAmount.test.ts) proves both agree.

/** The smaller of two amounts. */
function smaller(a: ExactAmount, b: ExactAmount): ExactAmount {
  return compareExact(a, b) <= 0 ? a : b;
}

/** The tier a `whole` reward applies to an amount: the last whose `from` is at most the amount. */
export function tierOf(tiers: readonly CompiledTier[], amount: ExactAmount): CompiledTier {
  let at = tiers[0] as CompiledTier;
  for (let i = 1; i < tiers.length; i++) {
    const t = tiers[i] as CompiledTier;
    if (compareExact(t.from, amount) > 0) break;
    at = t;
  }
  return at;
}

/**
 * The exact value a reward pays on an amount, unrounded: the reference computation.
 * @param amount - the transaction's amount (or what is left of it after returns)
 * @param reward - the offer's reward
 * @returns the exact value
 */
export function rewardDecimal(amount: ExactAmount, reward: CompiledReward): MoneyValue {
  const a = new ExactMoney(amount.text);
  switch (reward.type) {
    case 'percent': {
      const base = reward.maxEligible === undefined ? amount : smaller(amount, reward.maxEligible);
      return new ExactMoney(base.text).times(reward.rate.text).div(100);
    }
    case 'fixed':
      return new ExactMoney(smaller(amount, reward.amount).text);
    case 'tiers': {
      if (reward.mode === 'whole') return a.times(tierOf(reward.tiers, amount).rate.text).div(100);
      let sum = new ExactMoney(0);
      reward.tiers.forEach((t, i) => {
        const next = reward.tiers[i + 1];
        const top = next === undefined ? a : ExactMoney.min(a, next.from.text);
        const part = top.minus(t.from.text);
        if (part.gt(0)) sum = sum.plus(part.times(t.rate.text));
      });
      return sum.div(100);
    }
  }
}

/** `x × 10^(scale - xScale)` rounded with the options' mode, or `NaN` when not exact on safe integers. */
function atScale(units: number, xScale: number, options: ResolvedOptions): number {
  const shift = xScale - options.scale;
  let out = Number.NaN;
  if (shift <= 0) out = units * pow10(-shift);
  else if (shift <= 15) out = roundQuotient(units, pow10(shift), options.roundingMode);
  return Number.isSafeInteger(out) ? out : Number.NaN;
}

/** `amount × rate / 100` rounded to `scale`, or `NaN` when the integers could leave the safe range. */
function percentUnits(amount: ExactAmount, rate: ExactAmount, options: ResolvedOptions): number {
  const a = amount.units;
  const d = rate.units;
  // a·d < 2^53 keeps the product exact; NaN units fail every comparison and fall through.
  if (!(a <= 9e15 / d)) return Number.NaN;
  return atScale(a * d, amount.scale + rate.scale + 2, options);
}

/**
 * `marginal` tiers on safe integers: every part and rate on one scale, the products summed, one
 * rounding; `NaN` when any step could leave the safe range.
 */
function marginalUnits(
  amount: ExactAmount,
  tiers: readonly CompiledTier[],
  options: ResolvedOptions,
): number {
  let partScale = amount.scale;
  let rateScale = 0;
  for (const t of tiers) {
    if (t.from.scale > partScale) partScale = t.from.scale;
    if (t.rate.scale > rateScale) rateScale = t.rate.scale;
  }
  const up = (x: ExactAmount, s: number) => x.units * pow10(s - x.scale);
  const a = up(amount, partScale);
  if (!Number.isSafeInteger(a)) return Number.NaN;
  let sum = 0;
  for (let i = 0; i < tiers.length; i++) {
    const t = tiers[i] as CompiledTier;
    const from = up(t.from, partScale);
    if (!Number.isSafeInteger(from)) return Number.NaN;
    if (!(a > from)) break;
    const next = tiers[i + 1];
    const top = next === undefined ? a : Math.min(a, up(next.from, partScale));
    const product = (top - from) * up(t.rate, rateScale);
    sum += product;
    if (!Number.isSafeInteger(product) || !Number.isSafeInteger(sum)) return Number.NaN;
  }
  return atScale(sum, partScale + rateScale + 2, options);
}

/**
 * What a reward pays on an amount, rounded once to `scale` with the options' rounding, as integer
 * units (`value × 10^scale`); `NaN` when safe integers cannot give it exactly (then the caller
 * takes {@link rewardDecimal}).
 * @param amount - the transaction's amount (or what is left of it after returns)
 * @param reward - the offer's reward
 * @param options - scale and rounding
 * @returns the rounded units, or `NaN`
 */
export function rewardUnits(
  amount: ExactAmount,
  reward: CompiledReward,
  options: ResolvedOptions,
): number {
  switch (reward.type) {
    case 'percent': {
      const m = reward.maxEligible;
      return percentUnits(
        m === undefined || compareExact(amount, m) <= 0 ? amount : m,
        reward.rate,
        options,
      );
    }
    case 'fixed': {
      const x = smaller(amount, reward.amount);
      return Number.isNaN(x.units) ? Number.NaN : atScale(x.units, x.scale, options);
    }
    case 'tiers':
      return reward.mode === 'whole'
        ? percentUnits(amount, tierOf(reward.tiers, amount).rate, options)
        : marginalUnits(amount, reward.tiers, options);
  }
}
