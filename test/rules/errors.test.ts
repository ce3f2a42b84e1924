import { describe, expect, test } from 'vitest';
import {
  ConditionError,
  type ConditionIssueCode,
  checkCondition,
  compileCondition,
} from '../../src/rules/index.js';

const amount = { fact: 'transaction.amount', operator: 'equal', value: 1 };

// description, condition, code, path, words of the message
const cases: ReadonlyArray<readonly [string, unknown, ConditionIssueCode, string, string]> = [
  [
    'a condition that is not an object',
    'amount > 5',
    'invalid_node',
    'conditions',
    'not the string',
  ],
  ['a condition that is null', { all: [null] }, 'invalid_node', 'conditions.all[0]', 'not null'],
  [
    'a node with none of all, any, not or fact',
    { name: 'x' },
    'invalid_node',
    'conditions',
    'found none',
  ],
  [
    'a node with both all and any',
    { all: [], any: [amount] },
    'invalid_node',
    'conditions',
    'found all, any',
  ],
  [
    'a node with both not and a comparison',
    { not: amount, ...amount },
    'invalid_node',
    'conditions',
    'found not, a comparison',
  ],
  [
    'all that is not a list',
    { all: amount },
    'invalid_type',
    'conditions.all',
    'list of conditions',
  ],
  ['any that is not a list', { any: 'x' }, 'invalid_type', 'conditions.any', 'list of conditions'],
  ['not that is a list', { not: [amount] }, 'invalid_type', 'conditions.not', 'not a list'],
  ['an empty any', { all: [{ any: [] }] }, 'empty_any', 'conditions.all[0].any', 'at least one'],
  [
    'a comparison without a fact',
    { operator: 'equal', value: 1 },
    'missing_key',
    'conditions.fact',
    '"fact"',
  ],
  [
    'a comparison without an operator',
    { fact: 'customer.age', value: 1 },
    'missing_key',
    'conditions.operator',
    '"operator"',
  ],
  [
    'a comparison without a value',
    { fact: 'customer.age', operator: 'equal' },
    'missing_key',
    'conditions.value',
    '"value"',
  ],
  [
    'a fact that is not a string',
    { ...amount, fact: 3 },
    'invalid_type',
    'conditions.fact',
    'string',
  ],
  [
    'an operator that is not a string',
    { ...amount, operator: ['equal'] },
    'invalid_type',
    'conditions.operator',
    'string',
  ],
  [
    'a path that is not a string',
    { ...amount, fact: 'customer', path: ['age'] },
    'invalid_type',
    'conditions.path',
    'JSONPath',
  ],
  [
    'a misspelt property',
    { any: [{ ...amount, operater: 'equal' }] },
    'unknown_key',
    'conditions.any[0].operater',
    '"operater"',
  ],
  [
    'params on a comparison',
    { ...amount, params: { x: 1 } },
    'unsupported',
    'conditions.params',
    'fixed',
  ],
  [
    'a shared condition reference',
    { all: [{ condition: 'isBig' }] },
    'unsupported',
    'conditions.all[0].condition',
    'shared conditions',
  ],
  [
    'an unknown fact',
    { ...amount, fact: 'merchant' },
    'unknown_fact',
    'conditions.fact',
    'unknown fact "merchant"',
  ],
  [
    'an unknown dotted property',
    { ...amount, fact: 'customer.adress.city' },
    'unknown_property',
    'conditions.fact',
    'customer has no property "adress"',
  ],
  [
    'an unknown path step',
    { ...amount, fact: 'customer', path: '$.location.town' },
    'unknown_property',
    'conditions.path',
    'customer.location has no property "town"',
  ],
  [
    'a step below a value',
    { ...amount, fact: 'transaction.amount.cents' },
    'unknown_property',
    'conditions.fact',
    'transaction.amount is a number',
  ],
  [
    'a path with a wildcard',
    { ...amount, fact: 'customer', path: '$.*' },
    'invalid_path',
    'conditions.path',
    'plain member steps',
  ],
  [
    'a path with recursive descent',
    { ...amount, fact: 'customer', path: '$..city' },
    'invalid_path',
    'conditions.path',
    'plain member steps',
  ],
  [
    'a path without the root $',
    { ...amount, fact: 'customer', path: 'location.city' },
    'invalid_path',
    'conditions.path',
    'plain member steps',
  ],
  [
    'an empty path',
    { ...amount, fact: 'customer.age', path: '' },
    'invalid_path',
    'conditions.path',
    'plain member steps',
  ],
  [
    'a fact that is an object',
    { ...amount, fact: 'customer.location' },
    'not_a_value',
    'conditions.fact',
    'country, city',
  ],
  [
    'a path that leads to an object',
    { ...amount, fact: 'transaction', path: '$.merchant' },
    'not_a_value',
    'conditions.path',
    'id, name, category_code',
  ],
  [
    'an unknown operator',
    { ...amount, operator: 'equals' },
    'unknown_operator',
    'conditions.operator',
    'unknown operator "equals"',
  ],
  [
    'an unknown operator decorator',
    { ...amount, operator: 'never:equal' },
    'unknown_operator',
    'conditions.operator',
    '"never:equal"',
  ],
  [
    'transaction.amount lessThan the string "100"',
    { ...amount, operator: 'lessThan', value: '100' },
    'type_mismatch',
    'conditions.value',
    'the string "100"',
  ],
  [
    'a number fact equal to a string',
    { ...amount, value: '1' },
    'type_mismatch',
    'conditions.value',
    'with a number',
  ],
  [
    'a string fact lessThan a non-numeric string',
    { fact: 'customer.gender', operator: 'lessThan', value: 'm' },
    'type_mismatch',
    'conditions.value',
    'with a number',
  ],
  [
    'in with a value that is not a list',
    { ...amount, operator: 'in', value: 1 },
    'type_mismatch',
    'conditions.value',
    'list of numbers',
  ],
  [
    'notIn with elements of the wrong type',
    { fact: 'customer.gender', operator: 'notIn', value: ['f', 2] },
    'type_mismatch',
    'conditions.value',
    'element [1] is the number 2',
  ],
  [
    'contains on a scalar fact',
    { fact: 'customer.gender', operator: 'contains', value: 'f' },
    'type_mismatch',
    'conditions.operator',
    'always make this false',
  ],
  [
    'a fact reference of the wrong type',
    { ...amount, value: { fact: 'customer.gender' } },
    'type_mismatch',
    'conditions.value',
    'customer.gender (a string)',
  ],
  [
    'a fact reference to an unknown fact',
    { ...amount, value: { fact: 'offer.discount' } },
    'unknown_fact',
    'conditions.value.fact',
    '"offer"',
  ],
  [
    'a fact reference with a bad path',
    { ...amount, value: { fact: 'customer', path: '$.ag' } },
    'unknown_property',
    'conditions.value.path',
    '"ag"',
  ],
  [
    'a fact reference with an unknown key',
    { ...amount, value: { fact: 'customer.age', pth: '$' } },
    'unknown_key',
    'conditions.value.pth',
    '"pth"',
  ],
];

describe('compileCondition rejects', () => {
  test.each(cases)('%s', (_, condition, code, path, words) => {
    const issues = checkCondition(condition);
    expect(issues).toEqual([{ code, path, message: expect.stringContaining(words) }]);
    expect(() => compileCondition(condition)).toThrow(`${path}: `);
  });
});

describe('ConditionError', () => {
  const condition = {
    all: [
      { fact: 'transaction.amount', operator: 'lessThan', value: '100' },
      { any: [{ fact: 'customer.town', operator: 'equal', value: 'x' }, { not: { foo: 1 } }] },
      { fact: 'customer.age', operator: 'between', value: [1, 2] },
    ],
  };

  test('lists every issue in tree order, not only the first', () => {
    expect(checkCondition(condition).map((issue) => issue.path)).toEqual([
      'conditions.all[0].value',
      'conditions.all[1].any[0].fact',
      'conditions.all[1].any[1].not',
      'conditions.all[2].operator',
    ]);
  });

  test('carries the issues and names each path in its message', () => {
    const error = (() => {
      try {
        compileCondition(condition);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConditionError);
    const { issues, message, name } = error as ConditionError;
    expect(name).toBe('ConditionError');
    expect(issues).toHaveLength(4);
    expect(message).toMatch(/^Invalid condition \(4 problems\):/);
    expect(message).toContain('\n  conditions.all[2].operator: unknown operator "between"');
  });

  test('roots the paths where the caller says', () => {
    const issues = checkCondition({ not: { fact: 'x' } }, { path: 'offers[7].conditions' });
    expect(issues[0]?.path).toBe('offers[7].conditions.not.fact');
  });

  test('is not thrown for a valid condition', () => {
    expect(checkCondition({ all: [amount, { not: amount }] })).toEqual([]);
  });
});
