/**
 * A fixed set of conditions and facts run through json-rules-engine 7 and through the engine's
 * compiler. Conditions are in json-rules-engine's own form (`fact` + `path`). A case either
 * decides alike in both, or names the row of the differences table in docs/concepts.md
 * (`differs`) that explains why not.
 */
import type { ContextOverrides } from './_fixtures.js';

/** One differential case; the facts are `context(facts)` of `_fixtures.ts`. */
export interface JreCase {
  readonly name: string;
  readonly condition: Record<string, unknown>;
  readonly facts?: ContextOverrides;
  /** The id of the documented difference, when the two engines do not decide alike. */
  readonly differs?: string;
}

const leaf = (fact: string, path: string | undefined, operator: string, value: unknown) => ({
  fact,
  ...(path === undefined ? {} : { path }),
  operator,
  value,
});
const amount = (operator: string, value: unknown) =>
  leaf('transaction', '$.amount', operator, value);
const city = (operator: string, value: unknown) =>
  leaf('transaction', '$.location.city', operator, value);
const daysSince = (operator: string, value: unknown) =>
  leaf('history', '$.days_since_last_merchant_purchase', operator, value);
const noPurchase: ContextOverrides = { history: { days_since_last_merchant_purchase: undefined } };

export const JRE_CASES: readonly JreCase[] = [
  // Built-in operators on type-correct operands.
  { name: 'equal on a number', condition: amount('equal', 100) },
  { name: 'equal on a number, not met', condition: amount('equal', 99) },
  { name: 'notEqual on a string', condition: city('notEqual', 'Lyon') },
  { name: 'lessThan', condition: amount('lessThan', 150) },
  { name: 'lessThanInclusive at the boundary', condition: amount('lessThanInclusive', 100) },
  { name: 'greaterThan at the boundary', condition: amount('greaterThan', 100) },
  {
    name: 'greaterThanInclusive on age',
    condition: leaf('customer', '$.age', 'greaterThanInclusive', 34),
  },
  { name: 'in a list', condition: city('in', ['Lyon', 'Paris']) },
  { name: 'notIn a list', condition: city('notIn', ['Rome']) },
  { name: 'in an empty list', condition: city('in', []) },
  {
    name: 'a numeric string fact compared with a number',
    condition: leaf('transaction', '$.merchant.category_code', 'lessThan', 6000),
  },
  {
    name: 'a non-numeric string fact compared with a number',
    condition: leaf('transaction', '$.merchant.name', 'greaterThan', 0),
  },
  // Paths.
  {
    name: 'a bracketed path',
    condition: leaf('customer', "$['location']['city']", 'equal', 'Lyon'),
  },
  {
    name: 'a value that references another fact',
    condition: amount('greaterThan', { fact: 'history', path: '$.merchant_spend' }),
  },
  // Missing facts (allowUndefinedFacts).
  { name: 'lessThan on a missing fact', condition: daysSince('lessThan', 5), facts: noPurchase },
  { name: 'notEqual on a missing fact', condition: daysSince('notEqual', 3), facts: noPurchase },
  { name: 'in on a missing fact', condition: daysSince('in', [1, 2]), facts: noPurchase },
  { name: 'notIn on a missing fact', condition: daysSince('notIn', [1, 2]), facts: noPurchase },
  {
    name: 'greaterThanInclusive 0 on a missing fact',
    condition: daysSince('greaterThanInclusive', 0),
    facts: noPurchase,
  },
  // Nested all / any / not.
  { name: 'an empty all', condition: { all: [] } },
  {
    name: 'all of any and not',
    condition: {
      all: [
        { any: [city('equal', 'Rome'), amount('greaterThan', 50)] },
        { not: leaf('customer', '$.gender', 'equal', 'male') },
      ],
    },
  },
  { name: 'not of not', condition: { not: { not: amount('equal', 100) } } },
  {
    name: 'any with every child false',
    condition: { any: [city('equal', 'Rome'), { not: amount('equal', 100) }] },
  },
  {
    name: 'name and priority of odd types',
    condition: {
      name: 7,
      priority: 2,
      all: [{ ...amount('equal', 100), name: ['x'], priority: 1 }],
    },
  },
  // Decorators.
  { name: 'not:equal', condition: city('not:equal', 'Paris') },
  { name: 'not:in', condition: city('not:in', ['Rome']) },
  { name: 'not:not:equal', condition: city('not:not:equal', 'Paris') },
  { name: 'someValue:equal', condition: city('someValue:equal', ['Rome', 'Paris']) },
  { name: 'someValue:equal on an empty list', condition: city('someValue:equal', []) },
  { name: 'everyValue:equal on an empty list', condition: city('everyValue:equal', []) },
  { name: 'everyValue:greaterThan', condition: amount('everyValue:greaterThan', [50, 99]) },
  {
    name: 'everyValue:greaterThan, not met',
    condition: amount('everyValue:greaterThan', [50, 100]),
  },
  { name: 'not:someValue:equal', condition: city('not:someValue:equal', ['Rome', 'Paris']) },
  { name: 'someValue:in', condition: city('someValue:in', [['Rome'], ['Oslo', 'Paris']]) },
  { name: 'everyValue:notIn', condition: city('everyValue:notIn', [['Rome'], ['Oslo']]) },
  {
    name: 'not:someValue:lessThan on a missing fact',
    condition: daysSince('not:someValue:lessThan', [5, 10]),
    facts: noPurchase,
  },
  { name: 'swap:contains', condition: city('swap:contains', ['Lyon', 'Paris']) },
  { name: 'swap:doesNotContain', condition: city('swap:doesNotContain', ['Lyon', 'Paris']) },
  { name: 'swap:lessThan', condition: amount('swap:lessThan', 50) },
  { name: 'swap:someFact:equal', condition: city('swap:someFact:equal', ['Rome', 'Paris']) },
  { name: 'swap:everyFact:equal', condition: city('swap:everyFact:equal', ['Paris', 'Rome']) },
  { name: 'not:swap:contains', condition: city('not:swap:contains', ['Rome']) },
  // Where the engine differs: see the table in docs/concepts.md.
  {
    name: 'greaterThan a numeric string',
    condition: amount('greaterThan', '50'),
    differs: 'numeric-string',
  },
  {
    name: 'lessThan a numeric string',
    condition: amount('lessThan', '150'),
    differs: 'numeric-string',
  },
  { name: 'equal to a numeric string', condition: amount('equal', '100'), differs: 'wrong-type' },
  {
    name: 'notEqual to a number on a string fact',
    condition: city('notEqual', 5),
    differs: 'wrong-type',
  },
  {
    name: 'in a list of the wrong type',
    condition: amount('notIn', ['100']),
    differs: 'wrong-type',
  },
  { name: 'in a string', condition: city('in', 'Paris, Lyon'), differs: 'in-string' },
  { name: 'notIn a string', condition: city('notIn', 'Rome, Lyon'), differs: 'in-string' },
  { name: 'contains on a string fact', condition: city('contains', 'Par'), differs: 'list-fact' },
  {
    name: 'doesNotContain on a string fact',
    condition: city('doesNotContain', 'x'),
    differs: 'list-fact',
  },
  {
    name: 'someFact:equal on a string fact',
    condition: city('someFact:equal', 'Paris'),
    differs: 'list-fact',
  },
  {
    name: 'not:everyFact:equal on a string fact',
    condition: city('not:everyFact:equal', 'P'),
    differs: 'list-fact',
  },
  {
    name: 'someValue:equal on a value that is not a list',
    condition: city('someValue:equal', 'Paris'),
    differs: 'value-list',
  },
  {
    name: 'an unknown fact',
    condition: leaf('weather', undefined, 'notEqual', 'rain'),
    differs: 'unknown-fact',
  },
  {
    name: 'an unknown property',
    condition: leaf('customer', '$.tier', 'notEqual', 'gold'),
    differs: 'unknown-fact',
  },
  {
    name: 'a dotted fact name',
    condition: leaf('transaction.amount', undefined, 'equal', 100),
    differs: 'dotted-fact',
  },
  { name: 'an empty any', condition: { any: [] }, differs: 'empty-any' },
  {
    name: 'a comparison without a value',
    condition: { fact: 'history', path: '$.days_since_last_merchant_purchase', operator: 'equal' },
    facts: noPurchase,
  },
  {
    name: 'a path that ends at an object',
    condition: leaf('customer', '$.location', 'notEqual', 'Lyon'),
    differs: 'object-path',
  },
];
