/**
 * A frozen deep copy of a literal's lists and plain objects, so a compiled condition does not
 * change when its caller later mutates the JSON it came from.
 */
export function freezeLiteral<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map(freezeLiteral)) as T;
  if (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    const copy = Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [key, freezeLiteral(entry)]),
    );
    return Object.freeze(copy) as T;
  }
  return value;
}
