import { TZDate } from '@date-fns/tz';
import type { Decimal } from 'decimal.js';
import { describeValue } from '../rules/_internals/describe.js';
import { type OperatorRegistry, operatorsOption } from '../rules/index.js';
import { assertKnownKeys } from './knownKeys.js';
import { Money, type RoundingName, roundingMode } from './money.js';
import { wholeNumber } from './wholeNumber.js';

/**
 * Options shared by the core, `replay` and the engine. Every field is optional.
 * @public
 */
export interface CoreOptions {
  /**
   * IANA time zone in which transaction dates are wall-clock times and calendar days are judged.
   * @defaultValue `'UTC'`
   */
  readonly timeZone?: string;
  /**
   * Decimal places of a cashback amount.
   * @defaultValue `2`
   */
  readonly scale?: number;
  /**
   * How cashback is rounded to `scale` places.
   * @defaultValue `'half-up'`
   */
  readonly rounding?: RoundingName;
  /**
   * Currency of amounts and cashback; informational, one per deployment.
   * @defaultValue `'EUR'`
   */
  readonly currency?: string;
  /** Operators that conditions may use besides the built-in ones. */
  readonly operators?: OperatorRegistry;
  /**
   * What a return that arrives once its payment is confirmed does (docs/concepts.md, Late
   * returns): `clawback` records what it would have taken as a clawback, the payment left as it
   * is; `ignore` answers it `late_return` and takes nothing.
   * @defaultValue `'clawback'`
   */
  readonly lateReturns?: LateReturns;
}

/** What a return arriving after its payment was confirmed does. @public */
export type LateReturns = 'clawback' | 'ignore';

/** Options after defaults and validation. @public */
export interface ResolvedOptions {
  /** IANA time zone. */
  readonly timeZone: string;
  /** Decimal places of cashback. */
  readonly scale: number;
  /** Rounding mode name. */
  readonly rounding: RoundingName;
  /** decimal.js rounding constant for `rounding`. */
  readonly roundingMode: Decimal.Rounding;
  /** Currency code (informational). */
  readonly currency: string;
  /** `10 ** scale`, exact. */
  readonly unit: number;
  /** Registered operators, when given. */
  readonly operators: OperatorRegistry | undefined;
  /** What a late return does. */
  readonly lateReturns: LateReturns;
}

/** Every key of {@link CoreOptions}, for entry points whose options extend it. */
export const CORE_OPTION_KEYS: readonly (keyof CoreOptions)[] = Object.freeze([
  'timeZone',
  'scale',
  'rounding',
  'currency',
  'operators',
  'lateReturns',
]);

/**
 * Validates options and fills in defaults.
 * @param options - what the caller gave
 * @returns the resolved options
 * @throws TypeError for a key that is not an option (a misspelt `timezone`), a currency that is not
 *   a non-empty string or `operators` that is not a registry; RangeError for an unknown time
 *   zone, a scale outside 0–10, an unknown rounding name or a `lateReturns` other than
 *   `clawback` and `ignore`
 * @example
 * ```ts
 * const options = resolveOptions({ timeZone: 'Europe/Paris', scale: 3 });
 * ```
 * @public
 */
export function resolveOptions(options: CoreOptions = {}): ResolvedOptions {
  assertKnownKeys(options, CORE_OPTION_KEYS, 'core options');
  return resolveCoreOptions(options);
}

/**
 * {@link resolveOptions} without the check of unknown keys, for an entry point whose options
 * extend {@link CoreOptions} and which has checked its own keys.
 * @param options - the caller's options; only the fields of {@link CoreOptions} are read
 * @returns the resolved options
 * @throws as {@link resolveOptions}, apart from unknown keys
 */
export function resolveCoreOptions(options: CoreOptions): ResolvedOptions {
  const timeZone = options.timeZone ?? 'UTC';
  try {
    if (typeof timeZone !== 'string') throw new RangeError(String(timeZone));
    // Throws RangeError for a zone the runtime does not know.
    new Intl.DateTimeFormat('en-US', { timeZone });
    if (Number.isNaN(new TZDate(0, timeZone).getTime())) throw new RangeError(timeZone);
  } catch {
    throw new RangeError(`Unknown time zone '${String(timeZone)}'`);
  }
  const scale = wholeNumber(options.scale ?? 2, 'scale', { min: 0, max: 10 });
  const rounding = options.rounding ?? 'half-up';
  const mode = roundingMode(rounding);
  const currency = options.currency ?? 'EUR';
  if (typeof currency !== 'string' || currency.trim() === '') {
    throw new TypeError(`currency must be a non-empty string, got ${describeValue(currency)}`);
  }
  const operators = operatorsOption(options.operators);
  const lateReturns = options.lateReturns ?? 'clawback';
  if (lateReturns !== 'clawback' && lateReturns !== 'ignore') {
    throw new RangeError(
      `lateReturns must be 'clawback' or 'ignore', got ${describeValue(lateReturns)}`,
    );
  }
  return Object.freeze({
    timeZone,
    scale,
    rounding,
    roundingMode: mode,
    currency,
    unit: Money.pow(10, scale).toNumber(),
    operators,
    lateReturns,
  });
}
