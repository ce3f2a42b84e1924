import type { ExactAmount } from '../model/money.js';
import { ExactMoney, Money, type MoneyValue, pow10, roundQuotient } from '../model/money.js';
import type { ResolvedOptions } from '../model/options.js';
import type { CompiledOffer } from './offer.js';
import { rewardDecimal, rewardUnits } from './rewardAmount.js';

/**
 * A cashback amount rounded to `scale` places.
 * @public
 */
export interface Cashback {
  /** `cashback × 10^scale` as a safe integer, or `NaN` when it does not fit. */
  readonly units: number;
  /** The exact value; set only when `units` is `NaN`. */
  readonly decimal: MoneyValue | undefined;
  /** The value as a JSON number (the nearest double to the exact decimal). */
  readonly value: number;
}

/** The exact decimal of a cashback. @public */
export function cashbackDecimal(c: Cashback, scale: number): MoneyValue {
  return c.decimal ?? new ExactMoney(c.units).div(ExactMoney.pow(10, scale));
}

/**
 * The cap as payable at `scale`: rounded down, so a cap with more places than `scale` is never
 * exceeded (0.005 at 2 places pays at most 0.00).
 */
export function capAtScale(cap: ExactAmount, options: ResolvedOptions): MoneyValue {
  return cap.decimal.toDecimalPlaces(options.scale, Money.ROUND_DOWN);
}

/**
 * The reference computation with decimal.js: the reward's exact value on the amount rounded once
 * to `scale` places, then capped at `max_cashback` rounded down to `scale` places
 * (docs/concepts.md, Selection, cashback and payment).
 */
export function cashbackReference(
  amount: ExactAmount,
  offer: CompiledOffer,
  options: ResolvedOptions,
): Cashback {
  let rounded = rewardDecimal(amount, offer.reward).toDecimalPlaces(
    options.scale,
    options.roundingMode,
  );
  if (offer.maxCashback !== undefined) {
    const cap = capAtScale(offer.maxCashback, options);
    if (rounded.gt(cap)) rounded = cap;
  }
  return cashbackOf(rounded, options);
}

/**
 * A decimal with at most `scale` places as a cashback: integer units when they are safe.
 * @param d - the decimal
 * @param options - scale
 * @returns the same value as a cashback
 */
export function cashbackOf(d: MoneyValue, options: ResolvedOptions): Cashback {
  const units = d.times(options.unit).toNumber();
  return Number.isSafeInteger(units)
    ? { units, decimal: undefined, value: units / options.unit }
    : { units: Number.NaN, decimal: d, value: d.toNumber() };
}

/** At most 15 digits, optionally with a point: texts whose units are exact doubles. */
const SHORT_PLAIN = /^[0-9]{1,15}$/;

/**
 * An exact decimal text with at most `scale` places (a stored cashback, a funding total) as a
 * cashback. Texts of at most 15 digits and `scale` places are read as integer units directly;
 * any other goes through decimal.js (a property test holds the two equal).
 */
export function cashbackOfText(text: string, options: ResolvedOptions): Cashback {
  const point = text.indexOf('.');
  const places = point === -1 ? 0 : text.length - point - 1;
  const digits = point === -1 ? text : text.slice(0, point) + text.slice(point + 1);
  if (places <= options.scale && SHORT_PLAIN.test(digits)) {
    const units = Number(digits) * pow10(options.scale - places);
    if (Number.isSafeInteger(units))
      return { units, decimal: undefined, value: units / options.unit };
  }
  return cashbackOf(new ExactMoney(text), options);
}

/**
 * A cap (`max_cashback`, a budget, a cap's amount) as units at `scale`, rounded down: exact on
 * safe integers, `NaN` when it is not one.
 * @param cap - the cap
 * @param scale - decimal places of cashback
 * @returns `cap × 10^scale` rounded down, or `NaN`
 */
export function capUnits(cap: ExactAmount, scale: number): number {
  const s = cap.scale - scale;
  return s <= 0
    ? cap.units * pow10(-s)
    : roundQuotient(cap.units, pow10(s), Money.ROUND_DOWN as number);
}

/**
 * Cashback of a transaction amount under an offer, exact: its reward on the amount rounded once,
 * then `max_cashback` (docs/concepts.md, Rewards). The common case runs on safe integers (the
 * amounts and rates as integer units, one exact quotient and one rounding); anything that could
 * leave the safe-integer range takes the decimal.js reference path. A property test proves both
 * equal on every generated input.
 * @param amount - transaction amount
 * @param offer - the offer
 * @param options - scale and rounding
 * @returns the rounded, capped cashback
 * @public
 */
export function computeCashback(
  amount: ExactAmount,
  offer: CompiledOffer,
  options: ResolvedOptions,
): Cashback {
  let units = rewardUnits(amount, offer.reward, options);
  const cap = offer.maxCashback;
  if (cap !== undefined && Number.isSafeInteger(units)) {
    const capped = capUnits(cap, options.scale);
    units = Number.isSafeInteger(capped) ? Math.min(units, capped) : Number.NaN;
  }
  if (!Number.isSafeInteger(units)) return cashbackReference(amount, offer, options);
  // Both integers are exact doubles, and IEEE division rounds correctly: this is the double
  // nearest to the exact decimal, the same as Number(decimal.toFixed(scale)).
  return { units, decimal: undefined, value: units / options.unit };
}

/** `true` when the cashback is zero. */
export function isZeroCashback(c: Cashback): boolean {
  return c.units === 0 || c.decimal?.isZero() === true;
}

/** Compares two cashbacks. */
export function compareCashback(a: Cashback, b: Cashback, scale: number): number {
  if (!Number.isNaN(a.units) && !Number.isNaN(b.units)) return a.units - b.units;
  return cashbackDecimal(a, scale).comparedTo(cashbackDecimal(b, scale));
}
