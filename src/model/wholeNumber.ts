import { describeValue } from '../rules/_internals/describe.js';

/**
 * Reads a whole-number option: a safe integer from `min` to `max`, or (with `infinity`) exactly
 * `Infinity`. Every count, size, port and scale among the options goes through here, so they all
 * refuse `1.5`, `NaN`, `'3'` and out-of-range values with the same words: a value that is not a
 * number is a `TypeError`, a number that is not allowed a `RangeError`.
 * @param value - the option as given
 * @param name - how the message names it, e.g. `'scale'`
 * @param range - inclusive bounds (default 0 to `Number.MAX_SAFE_INTEGER`), and whether
 *   `Infinity` is allowed
 * @returns the value
 * @throws TypeError when the value is not a number; RangeError naming the option, the range and
 *   the value when it is a number outside them
 */
export function wholeNumber(
  value: unknown,
  name: string,
  range: { readonly min?: number; readonly max?: number; readonly infinity?: boolean } = {},
): number {
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (range.infinity === true && value === Number.POSITIVE_INFINITY) return value;
  if (isWholeNumber(value, min, max)) return value;
  const bounds =
    max === Number.MAX_SAFE_INTEGER
      ? `of at least ${min}`
      : min === max
        ? `${min}`
        : `from ${min} to ${max}`;
  const message = `${name} must be a whole number ${bounds}${range.infinity === true ? ' or Infinity' : ''}, got ${describeValue(value)}`;
  throw typeof value === 'number' ? new RangeError(message) : new TypeError(message);
}

/**
 * Whether `value` is a whole number (a safe integer) from `min` to `max`, both inclusive: the
 * same test as {@link wholeNumber}, for a caller that answers a bad value its own way.
 * @param value - anything
 * @param min - the smallest allowed
 * @param max - the largest allowed
 * @returns true for a safe integer within the bounds
 */
export function isWholeNumber(
  value: unknown,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}
