import fc from 'fast-check';

/** A leaf of the condition language over a fact the engine knows (docs/concepts.md, The condition language). */
function leafArbitrary(cities: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const city = fc.constantFrom(...cities);
  return fc.oneof(
    fc.record({
      fact: fc.constant('transaction.hour'),
      operator: fc.constantFrom('lessThan', 'greaterThanInclusive'),
      value: fc.integer({ min: 0, max: 23 }),
    }),
    fc.record({
      fact: fc.constant('transaction.weekday'),
      operator: fc.constantFrom('in', 'notIn'),
      value: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
    }),
    fc.record({
      fact: fc.constant('transaction.amount'),
      operator: fc.constantFrom('greaterThanInclusive', 'lessThan'),
      value: fc.integer({ min: 0, max: 500 }),
    }),
    fc
      .record({ operator: fc.constantFrom('equal', 'notEqual'), value: city, dotted: fc.boolean() })
      .map(({ operator, value, dotted }) =>
        dotted
          ? { fact: 'customer.location.city', operator, value }
          : { fact: 'customer', path: '$.location.city', operator, value },
      ),
    fc.record({
      fact: fc.constant('customer.location.city'),
      operator: fc.constant('in'),
      value: fc.uniqueArray(city, { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      fact: fc.constant('history.merchant_purchases'),
      operator: fc.constantFrom('greaterThanInclusive', 'lessThan', 'equal'),
      value: fc.integer({ min: 0, max: 3 }),
    }),
  );
}

/**
 * A simple condition tree: a leaf, or `all` / `any` / `not` over leaves.
 */
export function conditionArbitrary(
  cities: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const leaf = leafArbitrary(cities);
  return fc.oneof(
    { weight: 2, arbitrary: leaf },
    fc.array(leaf, { maxLength: 3 }).map((all) => ({ all })),
    fc.array(leaf, { minLength: 1, maxLength: 3 }).map((any) => ({ any })),
    leaf.map((not) => ({ not })),
  );
}
