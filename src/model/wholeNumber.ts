import { describeValue } from '../rules/_internals/describe.js';

/**
 * Reads a whole-number option: a safe integer from `min` to `max`, or (with `infinity`) exactly
 * `Infinity`. Every count, size and scale among the options goes through here, so they all
 * refuse `1.5`, `NaN`, `'3'` and out-of-range values with the same words.
 * @param value - the option as given
 * @param name - how the message names it, e.g. `'scale'`
 * @param range - inclusive bounds (default 0 to `Number.MAX_SAFE_INTEGER`), and whether
 *   `Infinity` is allowed
 * @returns the value
 * @throws RangeError naming the option, the range and the value
 */
export function wholeNumber(
  value: unknown,
  name: string,
  range: { readonly min?: number; readonly max?: number; readonly infinity?: boolean } = {},
): number {
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (range.infinity === true && value === Number.POSITIVE_INFINITY) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max) {
    return value;
  }
  const bounds =
    max === Number.MAX_SAFE_INTEGER
      ? `>= ${min}`
      : min === max
        ? `${min}`
        : `from ${min} to ${max}`;
  throw new RangeError(
    `${name} must be a whole number ${bounds}${range.infinity === true ? ' or Infinity' : ''}, got ${describeValue(value)}`,
  );
}
