import { Decimal } from 'decimal.js';

/**
 * The decimal type used for every amount. A private clone of decimal.js with enough precision
 * that `amount × discount / 100` is never rounded before the one rounding to `scale`.
 * @public
 */
export const Money = Decimal.clone({
  precision: 64,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -64,
  toExpPos: 64,
});

/**
 * Exact arithmetic for what the engine computes itself: sums, products, and divisions by powers
 * of ten, all of which terminate, so a precision this high never rounds them (a 64-digit
 * precision would round `amount × discount` of a long amount string). Not exported: a division
 * that does not terminate would run to the precision.
 */
export const ExactMoney = Decimal.clone({
  precision: 1e9,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

/** A decimal amount (an instance of {@link Money}). @public */
export type MoneyValue = InstanceType<typeof Money>;

/** Names of the rounding modes for cashback. @public */
export type RoundingName = 'half-up' | 'half-even' | 'half-down' | 'up' | 'down' | 'ceil' | 'floor';

const MODES: Readonly<Record<RoundingName, Decimal.Rounding>> = {
  'half-up': Decimal.ROUND_HALF_UP,
  'half-even': Decimal.ROUND_HALF_EVEN,
  'half-down': Decimal.ROUND_HALF_DOWN,
  up: Decimal.ROUND_UP,
  down: Decimal.ROUND_DOWN,
  ceil: Decimal.ROUND_CEIL,
  floor: Decimal.ROUND_FLOOR,
};

/** The decimal.js constant of a rounding name. */
export function roundingMode(name: RoundingName): Decimal.Rounding {
  const mode = MODES[name];
  if (mode === undefined) {
    throw new RangeError(
      `rounding must be one of ${Object.keys(MODES).join(', ')}, got '${String(name)}'`,
    );
  }
  return mode;
}

/** A plain decimal string: digits, then optionally a point and digits (no sign, no exponent). */
export const PLAIN_DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/** Largest power of ten we keep as an exact double in the fast path. */
const POW10: readonly number[] = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * An exact amount: the decimal plus, when it fits, the same value as a safe integer count of
 * `10^-scale` units. The integer form feeds the exact fast path of cashback arithmetic.
 * @public
 */
export interface ExactAmount {
  /** The value. */
  readonly decimal: MoneyValue;
  /** The value as a plain decimal string, e.g. `12.34`. */
  readonly text: string;
  /** `value × 10^scale` as a safe integer, or `NaN` when it does not fit in 15 digits. */
  readonly units: number;
  /** Decimal places of `units`. */
  readonly scale: number;
}

/**
 * An {@link ExactAmount} whose decimal.js value is made on first use: the cashback fast path needs
 * only `units`, and building a decimal for every parsed transaction was a large share of parsing
 * (docs/benchmarks.md, Figures behind choices in the code).
 */
class LazyExact implements ExactAmount {
  private value: MoneyValue | undefined;
  constructor(
    /** The canonical text, or the JSON number whose shortest form it is (made on first use). */
    private readonly source: string | number,
    readonly units: number,
    readonly scale: number,
  ) {}
  get text(): string {
    return typeof this.source === 'string' ? this.source : String(this.source);
  }
  get decimal(): MoneyValue {
    if (this.value === undefined) this.value = new Money(this.text);
    return this.value;
  }
  toJSON(): string {
    return this.text;
  }
}

/**
 * Most digits of an amount before its decimal point, leading zeros aside. No real amount comes
 * near it, every double's shortest form keeps within it (at most 309), and PostgreSQL's `numeric`
 * keeps 131,072.
 */
export const MAX_INTEGER_DIGITS = 1000;

/**
 * Most digits of an amount after its decimal point, trailing zeros aside. No real amount comes
 * near it, every double's shortest form keeps within it (at most 324), and PostgreSQL's `numeric`
 * keeps 16,383.
 */
export const MAX_DECIMALS = 1000;

/** Why an amount has more digits than {@link MAX_INTEGER_DIGITS} or {@link MAX_DECIMALS}. */
export const TOO_MANY_DIGITS = `must have at most ${MAX_INTEGER_DIGITS} digits before the decimal point and ${MAX_DECIMALS} after it`;

/**
 * Reads a positive decimal amount from a JSON number or a plain decimal string
 * (`^[0-9]+(\.[0-9]+)?$`). A number is read through its shortest decimal form (`String(n)`), so
 * `12.34` is exactly 12.34. Its value may have at most {@link MAX_INTEGER_DIGITS} digits before
 * the point and {@link MAX_DECIMALS} after it (docs/concepts.md, Input rules).
 * @param value - the JSON value
 * @returns the exact amount, or a reason why it is not one
 * @public
 */
export function parseAmount(value: unknown): ExactAmount | string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'must be a finite number';
    if (value <= 0) return 'must be greater than 0';
    if (value < 1e13) {
      // Most amounts have at most two decimals: then the units follow from the number itself,
      // without its text. For the smallest k with round(value × 10^k) / 10^k === value, that
      // quotient is the shortest decimal that reads back as `value`, which is what String(value)
      // writes (below 1e13 two such decimals are never closer than the spacing of doubles).
      for (let k = 0; k <= 2; k++) {
        const p = POW10[k] as number;
        const units = Math.round(value * p);
        if (units / p === value) return new LazyExact(value, units, k);
      }
    }
    const text = String(value);
    // The shortest form of a positive number has no sign, no leading or trailing zeros to drop,
    // and an exponent only when very small or large (handled by exactAmount).
    if (text.indexOf('e') < 0) {
      const dot = text.indexOf('.');
      const digits = dot < 0 ? text : text.slice(0, dot) + text.slice(dot + 1);
      const units = digits.length <= 15 ? Number(digits) : Number.NaN;
      return withinDigits(new LazyExact(text, units, dot < 0 ? 0 : text.length - dot - 1));
    }
    return withinDigits(exactAmount(text) ?? 'must be greater than 0');
  }
  if (typeof value === 'string') {
    if (!PLAIN_DECIMAL.test(value)) return 'must be a number or a plain decimal string';
    return withinDigits(exactAmount(value) ?? 'must be greater than 0');
  }
  return 'must be a number or a plain decimal string';
}

/**
 * The amount, or {@link TOO_MANY_DIGITS} when its canonical text has more digits than the limits:
 * PostgreSQL's `numeric` refuses more than 16,383 decimals, and the cost of exact arithmetic grows
 * with the digits.
 */
function withinDigits(a: ExactAmount | string): ExactAmount | string {
  if (typeof a === 'string') return a;
  const text = a.text;
  const dot = text.indexOf('.');
  const integerDigits = dot < 0 ? text.length : dot;
  return a.scale > MAX_DECIMALS || integerDigits > MAX_INTEGER_DIGITS ? TOO_MANY_DIGITS : a;
}

/** Zero as an exact amount: the `from` of a first tier, or a tier's rate of 0. @public */
export const ZERO_AMOUNT: ExactAmount = Object.freeze({
  decimal: new Money(0),
  text: '0',
  units: 0,
  scale: 0,
});

/**
 * Reads an amount that may be 0 (a tier's `from` and `rate`, docs/concepts.md, Rewards): a finite
 * JSON number at least 0 or a plain decimal string, as {@link parseAmount} reads the others.
 * @param value - the JSON value
 * @returns the exact amount ({@link ZERO_AMOUNT} for 0), or a reason why it is not one
 */
export function parseAmountOrZero(value: unknown): ExactAmount | string {
  if (value === 0) return ZERO_AMOUNT;
  if (typeof value === 'number' && value < 0) return 'must be at least 0';
  if (typeof value === 'string' && PLAIN_DECIMAL.test(value) && !/[1-9]/.test(value)) {
    return ZERO_AMOUNT;
  }
  return parseAmount(value);
}

/** Largest transaction amount: one trillion (10^12). */
export const MAX_TRANSACTION_AMOUNT = 1e12;

/** Why a transaction amount is too large. */
export const AMOUNT_TOO_LARGE = 'must be at most 1000000000000';

/**
 * Whether an amount is over {@link MAX_TRANSACTION_AMOUNT}. Below it every cashback, at the
 * default scale of 2, is a JSON number that reads back exactly; far above it a cashback would not
 * even be finite. Uses the units when they are known (exact: both sides are safe integers or the
 * bound is out of their reach), the decimal otherwise.
 */
export function overMaxAmount(a: ExactAmount): boolean {
  if (Number.isNaN(a.units)) return a.decimal.gt(MAX_TRANSACTION_AMOUNT);
  return a.scale <= 3 && a.units > MAX_TRANSACTION_AMOUNT * (POW10[a.scale] as number);
}

/**
 * Builds an {@link ExactAmount} from a decimal text, or `undefined` when the value is not greater than 0.
 */
function exactAmount(text: string): ExactAmount | undefined {
  if (PLAIN_DECIMAL.test(text)) {
    const dot = text.indexOf('.');
    let intPart = dot < 0 ? text : text.slice(0, dot);
    let frac = dot < 0 ? '' : text.slice(dot + 1);
    // Trailing fractional zeros and leading integer zeros carry no value.
    let end = frac.length;
    while (end > 0 && frac.charCodeAt(end - 1) === 48) end--;
    frac = frac.slice(0, end);
    let start = 0;
    while (start < intPart.length - 1 && intPart.charCodeAt(start) === 48) start++;
    intPart = intPart.slice(start);
    const digits = intPart === '0' ? frac.replace(/^0+/, '') : intPart + frac;
    if (digits === '' || /^0*$/.test(digits)) return undefined;
    const canonical = frac === '' ? intPart : `${intPart}.${frac}`;
    const units = digits.length <= 15 ? Number(digits) : Number.NaN;
    return new LazyExact(canonical, units, frac.length);
  }
  // Exponent forms such as String(1e-7) or String(1e21).
  const decimal = new Money(text);
  if (!decimal.isFinite() || decimal.lte(0)) return undefined;
  return exactAmount(decimal.toFixed());
}

/** `10^n` for 0 ≤ n ≤ 15, exact. */
export function pow10(n: number): number {
  return POW10[n] ?? Number.NaN;
}

/**
 * Whether a quotient that left a remainder above 0 rounds up (away from zero, as every value here
 * is positive) under a decimal.js rounding mode.
 * @param mode - the rounding mode
 * @param half - the sign of `2 × remainder − divisor`: below, at or past halfway
 * @param odd - whether the quotient is odd (for half-even)
 */
function roundsUp(mode: number, half: number, odd: boolean): boolean {
  switch (mode) {
    case Decimal.ROUND_UP:
    case Decimal.ROUND_CEIL:
      return true;
    case Decimal.ROUND_DOWN:
    case Decimal.ROUND_FLOOR:
      return false;
    case Decimal.ROUND_HALF_UP:
      return half >= 0;
    case Decimal.ROUND_HALF_DOWN:
      return half > 0;
    default: // ROUND_HALF_EVEN
      return half > 0 || (half === 0 && odd);
  }
}

/**
 * Rounds the positive rational `numerator / divisor` (both safe integers) to an integer with a
 * decimal.js rounding mode. Exact: `%` and the division of `numerator - r` are exact on safe
 * integers, and so is `2r − divisor`.
 */
export function roundQuotient(numerator: number, divisor: number, mode: number): number {
  const r = numerator % divisor;
  const q = (numerator - r) / divisor;
  if (r === 0) return q;
  return roundsUp(mode, Math.sign(2 * r - divisor), q % 2 === 1) ? q + 1 : q;
}

/**
 * {@link roundQuotient} on `bigint`s: the positive rational `numerator / divisor` rounded to an
 * integer with a decimal.js rounding mode, exact at any size.
 */
export function roundQuotientBig(numerator: bigint, divisor: bigint, mode: number): bigint {
  const q = numerator / divisor;
  const r = numerator - q * divisor;
  if (r === 0n) return q;
  const twice = 2n * r;
  const half = twice > divisor ? 1 : twice === divisor ? 0 : -1;
  return roundsUp(mode, half, q % 2n === 1n) ? q + 1n : q;
}

/**
 * Compares two exact amounts: negative, zero or positive as `a` is less than, equal to or greater
 * than `b`.
 */
export function compareExact(a: ExactAmount, b: ExactAmount): number {
  if (!Number.isNaN(a.units) && !Number.isNaN(b.units)) {
    const s = Math.max(a.scale, b.scale);
    const x = a.units * pow10(s - a.scale);
    const y = b.units * pow10(s - b.scale);
    if (Number.isSafeInteger(x) && Number.isSafeInteger(y)) return x - y;
  }
  return a.decimal.comparedTo(b.decimal);
}
