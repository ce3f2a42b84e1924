import { describeValue } from '../rules/_internals/describe.js';

/**
 * Throws a `TypeError` naming the argument unless `value` is an array: a caller that passes one
 * customer instead of a list, or a parsed file's wrapper object, learns which input is wrong
 * instead of meeting `items is not iterable` deep inside the core.
 * @param value - the argument as passed
 * @param what - how the error names it, e.g. `data.customers`
 */
export function requireArray(value: unknown, what: string): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) {
    throw new TypeError(`${what} must be an array, got ${describeValue(value)}`);
  }
}

/**
 * Throws a `TypeError` naming the argument unless `value` is a non-null object.
 * @param value - the argument as passed
 * @param what - how the error names it
 */
export function requireObject(value: unknown, what: string): asserts value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${what} must be an object, got ${describeValue(value)}`);
  }
}
