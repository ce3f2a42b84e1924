import { TZDate } from '@date-fns/tz';
import type { Decimal } from 'decimal.js';
import type { OperatorRegistry } from '../rules/index.js';
import { _roundingMode, Money, type RoundingName } from './money.js';

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
}

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
}

/**
 * Validates options and fills in defaults.
 * @param options - what the caller gave
 * @returns the resolved options
 * @throws RangeError for an unknown time zone, a scale outside 0–10 or an unknown rounding name
 * @public
 */
export function resolveOptions(options: CoreOptions = {}): ResolvedOptions {
  const timeZone = options.timeZone ?? 'UTC';
  try {
    // Throws RangeError for a zone the runtime does not know.
    new Intl.DateTimeFormat('en-US', { timeZone });
    if (Number.isNaN(new TZDate(0, timeZone).getTime())) throw new RangeError(timeZone);
  } catch {
    throw new RangeError(`Unknown time zone '${timeZone}'`);
  }
  const scale = options.scale ?? 2;
  if (!Number.isInteger(scale) || scale < 0 || scale > 10) {
    throw new RangeError(`scale must be a whole number from 0 to 10, got ${String(scale)}`);
  }
  const rounding = options.rounding ?? 'half-up';
  const roundingMode = _roundingMode(rounding);
  return Object.freeze({
    timeZone,
    scale,
    rounding,
    roundingMode,
    currency: options.currency ?? 'EUR',
    unit: Money.pow(10, scale).toNumber(),
    operators: options.operators,
  });
}
