import { parseDateTime, type WallClock } from '../../model/dateTime.js';
import { CORE_OPTION_KEYS, type CoreOptions } from '../../model/options.js';
import { wholeNumber } from '../../model/wholeNumber.js';
import { describeValue } from '../../rules/_internals/describe.js';

/** Options of `createReplay`: the core options plus how late a transaction may arrive. @public */
export interface ReplaySessionOptions extends CoreOptions {
  /**
   * How many days a transaction may be dated before the newest transaction already pushed at a
   * merchant whose offers read history (counting only transactions that are stored: duplicates and
   * unknown customers read no history). The session keeps each customer's purchases at such a
   * merchant for the longest lookback plus this many days before that newest day, and drops older
   * ones, so its memory grows with customers and merchants, not with the transactions read
   * (docs/replay.md, Streaming large data sets). A transaction later than this throws
   * `LateTransactionError` before anything of its chunk is decided. `Infinity` keeps every
   * purchase and accepts any order.
   * @defaultValue `31` for `createReplay`; `Infinity` for `replay`, which holds its whole input anyway
   */
  readonly maxLatenessDays?: number;
  /**
   * The instant the summary's liability is judged at (docs/replay.md, Liability): a date-time
   * read as a transaction's, in the replay's zone. Returns that arrived after it are left out of
   * the liability.
   * @defaultValue the latest date-time of the input (a transaction's date, a return's arrival)
   */
  readonly asOf?: string;
}

/** Options of `createReplay`: the session options plus whether it takes returns. @public */
export interface CreateReplayOptions extends ReplaySessionOptions {
  /**
   * Whether the session takes returns (`pushReturns`): it then keeps, per stored transaction,
   * what deciding a return needs (customer, date-time, amount, returned sum, payment), so its
   * memory grows with the transactions stored (docs/replay.md, Returns).
   * @defaultValue `false`
   */
  readonly returns?: boolean;
}

/** Options of `replay`: the session options plus injected time and ids. @public */
export interface ReplayOptions extends ReplaySessionOptions {
  /** Stamps `generated_at` of the result; without it the result has none (the core reads no clock). */
  readonly clock?: () => Date;
  /**
   * Makes the `event_id` of the result.
   * @defaultValue a function returning `'replay'`
   */
  readonly ids?: () => string;
}

/** `maxLatenessDays` of a session that is not given one. */
export const DEFAULT_LATENESS_DAYS = 31;

/** The keys a session's options may have. */
export const SESSION_OPTION_KEYS: readonly string[] = [
  ...CORE_OPTION_KEYS,
  'maxLatenessDays',
  'asOf',
];

/**
 * `asOf` checked and read in the replay's zone.
 * @param value - the option as given
 * @param timeZone - the replay's zone
 * @returns the instant, `undefined` when left out
 * @throws TypeError when it is not a string; RangeError when it is not a date-time
 */
export function asOfInstant(value: unknown, timeZone: string): WallClock | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new TypeError(`asOf must be a date-time string, got ${describeValue(value)}`);
  }
  const when = parseDateTime(value, timeZone);
  if (typeof when === 'string') throw new RangeError(`asOf ${when}`);
  return when;
}

/** The keys the options of `createReplay` may have. */
export const CREATE_OPTION_KEYS: readonly string[] = [...SESSION_OPTION_KEYS, 'returns'];

/**
 * `maxLatenessDays` checked: a whole number of days, or `Infinity`.
 * @param value - the option as given
 * @param fallback - the value when it is left out
 * @returns the number of days
 * @throws RangeError when it is neither
 */
export function latenessDays(value: number | undefined, fallback: number): number {
  return wholeNumber(value ?? fallback, 'maxLatenessDays', { infinity: true });
}
