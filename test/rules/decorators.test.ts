import { describe, expect, test } from 'vitest';
import {
  checkCondition,
  compileCondition,
  createOperatorRegistry,
  defineOperator,
} from '../../src/rules/index.js';
import { context, holds } from './_fixtures.js';

const city = (operator: string, value: unknown) => ({
  fact: 'transaction.location.city',
  operator,
  value,
});
const amount = (operator: string, value: unknown) => ({
  fact: 'transaction.amount',
  operator,
  value,
});
const issues = (condition: unknown) =>
  checkCondition(condition).map((issue) => `${issue.code} at ${issue.path}: ${issue.message}`);

describe('not:', () => {
  test('not:equal holds when the city is Lyon and the value is Paris', () => {
    expect(
      holds(city('not:equal', 'Paris'), {
        transaction: { location: { country: 'FR', city: 'Lyon' } },
      }),
    ).toBe(true);
    expect(holds(city('not:equal', 'Paris'))).toBe(false);
  });
  test('not:lessThan holds for an undefined fact, since lessThan is false there', () => {
    const noPurchase = { history: { days_since_last_merchant_purchase: undefined } };
    const leaf = {
      fact: 'history.days_since_last_merchant_purchase',
      operator: 'not:lessThan',
      value: 5,
    };
    expect(holds(leaf, noPurchase)).toBe(true);
  });
  test('keeps the type check of the operator it negates', () => {
    expect(issues(amount('not:equal', '100'))).toEqual([
      expect.stringMatching(
        /^type_mismatch at conditions.value: equal compares transaction.amount/,
      ),
    ]);
  });
  test('chains: not:not:equal is equal', () => {
    expect(holds(city('not:not:equal', 'Paris'))).toBe(true);
  });
});

describe('someValue: and everyValue:', () => {
  test('someValue:equal holds when one item equals the city', () => {
    expect(holds(city('someValue:equal', ['Rome', 'Paris']))).toBe(true);
    expect(holds(city('someValue:equal', ['Rome', 'Oslo']))).toBe(false);
  });
  test('someValue:greaterThan holds when the amount exceeds one threshold', () => {
    expect(holds(amount('someValue:greaterThan', [500, 99]))).toBe(true);
    expect(holds(amount('someValue:greaterThan', [500, 100]))).toBe(false);
  });
  test('everyValue:lessThan needs every threshold above the amount; [] is true', () => {
    expect(holds(amount('everyValue:lessThan', [101, 200]))).toBe(true);
    expect(holds(amount('everyValue:lessThan', [101, 100]))).toBe(false);
    expect(holds(amount('everyValue:lessThan', []))).toBe(true);
  });
  test('not:someValue:equal is notIn', () => {
    expect(holds(city('not:someValue:equal', ['Rome', 'Oslo']))).toBe(true);
    expect(holds(city('not:someValue:equal', ['Paris']))).toBe(false);
  });
  test('rejects someValue:equal when an item is not of the fact type, naming the item', () => {
    expect(issues(amount('someValue:equal', [1, '2']))).toEqual([
      expect.stringMatching(
        /^type_mismatch at conditions.value: someValue: item \[1\]: equal compares/,
      ),
    ]);
  });
  test('rejects someValue: on a value that is not a list, or a fact reference', () => {
    expect(issues(amount('someValue:equal', 100))).toEqual([
      'type_mismatch at conditions.value: someValue: needs a literal list on the value side, not the number 100',
    ]);
    expect(issues(amount('everyValue:equal', { fact: 'history.merchant_spend' }))).toHaveLength(1);
  });
});

describe('swap:', () => {
  test('swap:contains holds when the literal list holds the city', () => {
    expect(holds(city('swap:contains', ['Rome', 'Paris']))).toBe(true);
    expect(holds(city('swap:contains', ['Rome']))).toBe(false);
  });
  test('swap:lessThan puts the value first: 50 < amount', () => {
    expect(holds(amount('swap:lessThan', 50))).toBe(true);
    expect(holds(amount('swap:lessThan', 100))).toBe(false);
  });
  test('rejects swap:contains when the list items are not of the fact type', () => {
    expect(issues(city('swap:contains', [1, 2]))).toEqual([
      expect.stringMatching(
        /^type_mismatch at conditions.operator: contains looks for a number in the list \[1,2\], not transaction.location.city/,
      ),
    ]);
  });
  test('rejects swap:in, whose list would have to be the fact', () => {
    expect(issues(city('swap:in', ['Paris']))).toHaveLength(1);
  });
});

describe('someFact: and everyFact:', () => {
  test('reject a fact of the schema, which is never a list (json-rules-engine makes it false)', () => {
    expect(issues(city('someFact:equal', 'Paris'))).toEqual([
      expect.stringMatching(
        /^type_mismatch at conditions.operator: someFact: needs a literal list on the fact side, but transaction.location.city is not a list/,
      ),
    ]);
  });
  test('swap:someFact:equal is someValue:equal', () => {
    expect(holds(city('swap:someFact:equal', ['Rome', 'Paris']))).toBe(true);
    expect(holds(city('swap:everyFact:equal', ['Paris', 'Rome']))).toBe(false);
    expect(holds(city('swap:everyFact:equal', ['Paris', 'Paris']))).toBe(true);
  });
});

describe('decorators on custom operators', () => {
  const startsWith = defineOperator({
    name: 'startsWith',
    factType: 'string',
    valueType: 'string',
    evaluate: (fact, prefix) => fact.startsWith(prefix),
  });
  const operators = createOperatorRegistry([startsWith]);
  const merchant = (operator: string, value: unknown) => ({
    fact: 'transaction.merchant.name',
    operator,
    value,
  });
  const decide = (condition: unknown) =>
    compileCondition(condition, { operators }).evaluate(context());

  test('not:someValue:startsWith holds when no prefix starts the merchant name', () => {
    expect(decide(merchant('not:someValue:startsWith', ['Tea', 'Bar']))).toBe(true);
    expect(decide(merchant('not:someValue:startsWith', ['Tea', 'Coffee']))).toBe(false);
  });
  test('type-checks each item against the custom operator', () => {
    const found = checkCondition(merchant('someValue:startsWith', ['Co', 5]), { operators });
    expect(found.map((issue) => issue.message)).toEqual([
      'someValue: item [1]: startsWith takes a string as its value, not the number 5',
    ]);
  });
  test('a registered name with a colon wins over decorators, as in json-rules-engine', () => {
    const odd = defineOperator({ name: 'not:equal', evaluate: () => true });
    const withOdd = createOperatorRegistry([odd]);
    expect(
      compileCondition(city('not:equal', 'Paris'), { operators: withOdd }).evaluate(context()),
    ).toBe(true);
  });
  test('rejects an unknown decorator or an unknown operator under a known one', () => {
    expect(issues(city('never:equal', 'Paris'))[0]).toMatch(
      /^unknown_operator at conditions.operator: unknown operator "never:equal"/,
    );
    expect(issues(city('not:startsWith', 'Paris'))[0]).toMatch(/^unknown_operator/);
  });
});
