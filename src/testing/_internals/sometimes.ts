import fc from 'fast-check';

/**
 * `undefined` (a field left out) `absent` times as often as a value; shrinks to `undefined`.
 */
export function sometimes<T>(
  arbitrary: fc.Arbitrary<T>,
  absent: number,
): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

/**
 * The object without its `undefined` fields, as JSON would carry it.
 */
export function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
