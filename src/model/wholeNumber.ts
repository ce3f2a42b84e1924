/**
 * Whether `value` is a whole number (a safe integer) from `min` to `max`, both inclusive.
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
  return Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
}

/**
 * Returns `value` when it is a whole number from `min` to `max`, else throws a `RangeError`
 * naming it: `maxRecords must be a whole number of at least 1, got 0.5`. The one check of counts
 * and sizes in options.
 * @param value - the value as given
 * @param name - how the message names it
 * @param min - the smallest allowed
 * @param max - the largest allowed
 * @returns the value
 * @throws RangeError when it is not a whole number within the bounds
 */
export function requireWholeNumber(
  value: unknown,
  name: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (isWholeNumber(value, min, max)) return value;
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  throw new RangeError(`${name} must be a whole number ${range}, got ${String(value)}`);
}
