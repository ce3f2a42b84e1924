import { describe, expect, test } from 'vitest';
import { builtInOperators, checkCondition } from '../../src/rules/index.js';
import { holds, LEAF_FACTS } from './_fixtures.js';

const amount = (operator: string, value: unknown) => ({
  fact: 'transaction.amount',
  operator,
  value,
});
const daysSince = (operator: string, value: unknown) => ({
  fact: 'history.days_since_last_merchant_purchase',
  operator,
  value,
});
const noPurchase = { history: { days_since_last_merchant_purchase: undefined } };
const issueAt = (condition: unknown) =>
  checkCondition(condition).map((issue) => `${issue.code} at ${issue.path}`);

describe('equal', () => {
  test('holds when transaction.amount is 100 and the value is 100', () => {
    expect(holds(amount('equal', 100))).toBe(true);
  });
  test('fails when transaction.amount is 100.5 and the value is 100', () => {
    expect(holds(amount('equal', 100), { transaction: { amount: 100.5 } })).toBe(false);
  });
  test('compares strings exactly: "Paris" is not "paris"', () => {
    const city = (value: string) => ({
      fact: 'transaction.location.city',
      operator: 'equal',
      value,
    });
    expect(holds(city('Paris'))).toBe(true);
    expect(holds(city('paris'))).toBe(false);
  });
  test('fails for an undefined fact, whatever the number', () => {
    expect(holds(daysSince('equal', 0), noPurchase)).toBe(false);
  });
  test('rejects a number fact compared with the string "100"', () => {
    expect(issueAt(amount('equal', '100'))).toEqual(['type_mismatch at conditions.value']);
  });
  test('rejects a string fact compared with the number 5411', () => {
    const leaf = { fact: 'transaction.merchant.category_code', operator: 'equal', value: 5411 };
    expect(issueAt(leaf)).toEqual(['type_mismatch at conditions.value']);
  });
});

describe('notEqual', () => {
  test('holds when transaction.amount is 100 and the value is 99', () => {
    expect(holds(amount('notEqual', 99))).toBe(true);
  });
  test('fails when both are 100', () => {
    expect(holds(amount('notEqual', 100))).toBe(false);
  });
  test('holds for an undefined fact, as json-rules-engine does', () => {
    expect(holds(daysSince('notEqual', 3), noPurchase)).toBe(true);
  });
  test('rejects a number fact compared with a boolean', () => {
    expect(issueAt(amount('notEqual', true))).toEqual(['type_mismatch at conditions.value']);
  });
});

describe.each([
  // operator, amount 99, amount 100, amount 101 (compared with 100)
  ['lessThan', true, false, false],
  ['lessThanInclusive', true, true, false],
  ['greaterThan', false, false, true],
  ['greaterThanInclusive', false, true, true],
] as const)('%s', (operator, below, at, above) => {
  test(`gives ${below}, ${at}, ${above} for 99, 100, 101 against 100`, () => {
    const results = [99, 100, 101].map((n) =>
      holds(amount(operator, 100), { transaction: { amount: n } }),
    );
    expect(results).toEqual([below, at, above]);
  });
  test('handles 0, negatives and decimals', () => {
    expect(holds(amount(operator, -0.5), { transaction: { amount: -0.5 } })).toBe(at);
    expect(holds(amount(operator, 0), { transaction: { amount: -0.01 } })).toBe(below);
    expect(holds(amount(operator, 0.1), { transaction: { amount: 0.2 } })).toBe(above);
  });
  test('fails for an undefined fact', () => {
    expect(holds(daysSince(operator, 3), noPurchase)).toBe(false);
  });
  test('compares a numeric string fact as a number: category code "5411" against 5411', () => {
    const leaf = { fact: 'transaction.merchant.category_code', operator, value: 5411 };
    expect(holds(leaf)).toBe(at);
  });
  test('fails for a string fact that does not start like a number: "Coffee House"', () => {
    const leaf = { fact: 'transaction.merchant.name', operator, value: 0 };
    expect(holds(leaf)).toBe(false);
  });
  test('rejects transaction.amount compared with the string "100"', () => {
    expect(issueAt(amount(operator, '100'))).toEqual(['type_mismatch at conditions.value']);
  });
  test('rejects a string fact compared with the string "6000"', () => {
    const leaf = { fact: 'transaction.merchant.category_code', operator, value: '6000' };
    expect(issueAt(leaf)).toEqual(['type_mismatch at conditions.value']);
  });
  test('rejects NaN and Infinity', () => {
    expect(issueAt(amount(operator, Number.NaN))).toEqual(['type_mismatch at conditions.value']);
    expect(issueAt(amount(operator, Number.POSITIVE_INFINITY))).toHaveLength(1);
  });
});

describe.each([
  ['in', true],
  ['notIn', false],
] as const)('%s', (operator, whenListed) => {
  test(`gives ${whenListed} when the list holds the fact`, () => {
    expect(holds(amount(operator, [50, 100]))).toBe(whenListed);
    const city = { fact: 'customer.location.city', operator, value: ['Lyon', 'Nice'] };
    expect(holds(city)).toBe(whenListed);
  });
  test(`gives ${!whenListed} when it does not, or is empty`, () => {
    expect(holds(amount(operator, [50, 100.01]))).toBe(!whenListed);
    expect(holds(amount(operator, []))).toBe(!whenListed);
  });
  test(`gives ${!whenListed} for an undefined fact`, () => {
    expect(holds(daysSince(operator, [1, 3]), noPurchase)).toBe(!whenListed);
  });
  test('rejects a value that is not a list', () => {
    expect(issueAt(amount(operator, 100))).toEqual(['type_mismatch at conditions.value']);
  });
  test('rejects a list with an element of the wrong type, naming it', () => {
    const [issue] = checkCondition(amount(operator, [1, '2']));
    expect(issue?.message).toContain('element [1] is the string "2"');
  });
  test('rejects a fact reference, which is never a list', () => {
    const ref = { fact: 'transaction', path: '$.amount' };
    expect(issueAt(amount(operator, ref))).toEqual(['type_mismatch at conditions.value']);
  });
});

describe.each(['contains', 'doesNotContain'])('%s', (operator) => {
  test.each(LEAF_FACTS)('is rejected on %s, a scalar fact', (fact) => {
    const leaf = { fact, operator, value: 'x' };
    expect(issueAt(leaf)).toEqual(['type_mismatch at conditions.operator']);
  });
  test('needs an array fact, as json-rules-engine does', () => {
    const op = builtInOperators.find((o) => o.name === operator)!;
    const holdsTwo = operator === 'contains';
    expect(op.evaluate([1, 2], 2)).toBe(holdsTwo);
    expect(op.evaluate([1, 2], 3)).toBe(!holdsTwo);
    expect(op.evaluate('abc', 'a')).toBe(false);
    expect(op.evaluate(undefined, 'a')).toBe(false);
  });
});

test("the built-in operators are exactly json-rules-engine 7.x's default operators", () => {
  expect(builtInOperators.map((o) => o.name).sort()).toEqual([
    'contains',
    'doesNotContain',
    'equal',
    'greaterThan',
    'greaterThanInclusive',
    'in',
    'lessThan',
    'lessThanInclusive',
    'notEqual',
    'notIn',
  ]);
});
