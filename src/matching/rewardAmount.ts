import {
  compareExact,
  type ExactAmount,
  ExactMoney,
  type MoneyValue,
  pow10,
  roundQuotient,
  roundQuotientBig,
} from '../model/money.js';
import type { ResolvedOptions } from '../model/options.js';
import type { CompiledReward, CompiledTier } from './offer.js';

// What a reward pays on an amount before `max_cashback` and funding (docs/concepts.md, Rewards):
// the exact value by decimal.js, the reference, and the same rounded to `scale` in integers when
// the amount, rates and bounds have integer units (at most 15 digits each): on safe integers
// (`number`) while every product stays below 2^53, on `bigint` past that. Only amounts, rates or
// bounds of more than 15 digits go to decimal.js. A property test
// (test/properties/cashbackFastPath.test.ts) proves every path agrees.

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

/**
 * `x × 10^(scale - xScale)` for a `bigint` `x`, rounded with the options' mode: a safe integer, or
 * `NaN` when the cashback itself is past 2^53 units (decimal.js carries it then).
 */
function atScaleBig(units: bigint, xScale: number, options: ResolvedOptions): number {
  const shift = xScale - options.scale;
  const out =
    shift <= 0
      ? units * 10n ** BigInt(-shift)
      : roundQuotientBig(units, 10n ** BigInt(shift), options.roundingMode);
  return out <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(out) : Number.NaN;
}

/**
 * `amount × rate / 100` rounded to `scale`: on safe integers while the product is, on `bigint`
 * past that; `NaN` when either has more than 15 digits.
 */
function percentUnits(amount: ExactAmount, rate: ExactAmount, options: ResolvedOptions): number {
  const a = amount.units;
  const d = rate.units;
  if (Number.isNaN(a) || Number.isNaN(d)) return Number.NaN;
  const xScale = amount.scale + rate.scale + 2;
  // a·d ≤ 9e15 < 2^53 keeps the product exact as a double.
  if (a <= 9e15 / d) {
    const out = atScale(a * d, xScale, options);
    if (!Number.isNaN(out)) return out;
  }
  return atScaleBig(BigInt(a) * BigInt(d), xScale, options);
}

/**
 * `marginal` tiers in integers: every part and rate on one scale, the products summed, one
 * rounding. On safe integers while every step stays below 2^53, on `bigint` past that; `NaN` when
 * the amount, a `from` or a rate has more than 15 digits.
 */
function marginalUnits(
  amount: ExactAmount,
  tiers: readonly CompiledTier[],
  options: ResolvedOptions,
): number {
  let partScale = amount.scale;
  let rateScale = 0;
  for (const t of tiers) {
    if (Number.isNaN(t.from.units) || Number.isNaN(t.rate.units)) return Number.NaN;
    if (t.from.scale > partScale) partScale = t.from.scale;
    if (t.rate.scale > rateScale) rateScale = t.rate.scale;
  }
  if (Number.isNaN(amount.units)) return Number.NaN;
  const xScale = partScale + rateScale + 2;
  const sum = marginalSum(amount, tiers, partScale, rateScale);
  const out = Number.isNaN(sum) ? Number.NaN : atScale(sum, xScale, options);
  if (!Number.isNaN(out)) return out;
  return atScaleBig(marginalSumBig(amount, tiers, partScale, rateScale), xScale, options);
}

/** The sum of `marginalUnits` on safe integers, or `NaN` when a step leaves them. */
function marginalSum(
  amount: ExactAmount,
  tiers: readonly CompiledTier[],
  partScale: number,
  rateScale: number,
): number {
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
  return sum;
}

/** The sum of `marginalUnits` on `bigint`, exact at any size. */
function marginalSumBig(
  amount: ExactAmount,
  tiers: readonly CompiledTier[],
  partScale: number,
  rateScale: number,
): bigint {
  const up = (x: ExactAmount, s: number) => BigInt(x.units) * 10n ** BigInt(s - x.scale);
  const a = up(amount, partScale);
  let sum = 0n;
  for (let i = 0; i < tiers.length; i++) {
    const t = tiers[i] as CompiledTier;
    const from = up(t.from, partScale);
    if (a <= from) break;
    const next = tiers[i + 1];
    const nextFrom = next === undefined ? a : up(next.from, partScale);
    // The smaller of the two (Math.min takes no bigint).
    let top = a;
    if (nextFrom < top) top = nextFrom;
    sum += (top - from) * up(t.rate, rateScale);
  }
  return sum;
}

/**
 * What a reward pays on an amount, rounded once to `scale` with the options' rounding, as integer
 * units (`value × 10^scale`); `NaN` when integers cannot give it (an amount, rate or bound of more
 * than 15 digits, or a cashback past 2^53 units: then the caller takes {@link rewardDecimal}).
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
      if (Number.isNaN(x.units)) return Number.NaN;
      const out = atScale(x.units, x.scale, options);
      return Number.isNaN(out) ? atScaleBig(BigInt(x.units), x.scale, options) : out;
    }
    case 'tiers':
      return reward.mode === 'whole'
        ? percentUnits(amount, tierOf(reward.tiers, amount).rate, options)
        : marginalUnits(amount, reward.tiers, options);
  }
}
