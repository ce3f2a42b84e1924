import { describe, expect, test } from 'vitest';
import { type Condition, compileCondition } from '../../src/rules/index.js';
import { context, contextWithoutHistory, holds } from './_fixtures.js';

const T = { fact: 'transaction.amount', operator: 'equal', value: 100 } as const;
const F = { fact: 'transaction.amount', operator: 'equal', value: 1 } as const;

describe('all', () => {
  test('holds when every sub-condition holds', () => {
    expect(holds({ all: [T, T, T] })).toBe(true);
  });
  test('fails when one sub-condition fails', () => {
    expect(holds({ all: [T, T, F] })).toBe(false);
    expect(holds({ all: [F, T] })).toBe(false);
  });
  test('holds when empty, as in json-rules-engine', () => {
    expect(holds({ all: [] })).toBe(true);
  });
});

describe('any', () => {
  test('holds when one sub-condition holds', () => {
    expect(holds({ any: [F, F, T] })).toBe(true);
    expect(holds({ any: [T] })).toBe(true);
  });
  test('fails when none holds', () => {
    expect(holds({ any: [F, F, F] })).toBe(false);
    expect(holds({ any: [F] })).toBe(false);
  });
});

describe('not', () => {
  test('negates its condition', () => {
    expect(holds({ not: T })).toBe(false);
    expect(holds({ not: F })).toBe(true);
  });
  test('nests with all and any', () => {
    expect(holds({ not: { any: [F, { all: [T, { not: F }] }] } })).toBe(false);
    expect(holds({ all: [{ not: { all: [T, F] } }, { any: [F, T] }] })).toBe(true);
  });
});

describe('a comparison at the root', () => {
  test('is accepted (json-rules-engine requires all, any or not at the root)', () => {
    expect(holds(T)).toBe(true);
  });
});

describe('facts and paths', () => {
  const paris = (fact: string, path?: string) => ({
    fact,
    path,
    operator: 'equal',
    value: 'Paris',
  });
  test('reads a fact through a JSONPath', () => {
    expect(holds(paris('transaction', '$.location.city'))).toBe(true);
  });
  test('reads a dotted fact name as fact plus path', () => {
    expect(holds(paris('transaction.location.city'))).toBe(true);
  });
  test('combines a dotted fact with a path', () => {
    expect(holds(paris('transaction.location', '$.city'))).toBe(true);
  });
  test('accepts bracketed member steps and the bare root "$"', () => {
    expect(holds(paris('transaction', '$[\'location\']["city"]'))).toBe(true);
    expect(holds(paris('transaction.location.city', '$'))).toBe(true);
  });
  test('reads every level of the schema', () => {
    expect(holds({ fact: 'customer.age', operator: 'equal', value: 34 })).toBe(true);
    const code = { fact: 'transaction.merchant.category_code', operator: 'equal', value: '5411' };
    expect(holds(code)).toBe(true);
  });
});

describe('fact references as values', () => {
  test('compare two facts, resolved per evaluation', () => {
    const spendBelowAmount = {
      fact: 'history.merchant_spend',
      operator: 'lessThan',
      value: { fact: 'transaction', path: '$.amount' },
    };
    expect(holds(spendBelowAmount)).toBe(true);
    expect(holds(spendBelowAmount, { history: { merchant_spend: 200 } })).toBe(false);
  });
  test('accept dotted names', () => {
    const sameCountry = {
      fact: 'transaction.location.country',
      operator: 'equal',
      value: { fact: 'customer.location.country' },
    };
    expect(holds(sameCountry)).toBe(true);
    expect(holds(sameCountry, { customer: { location: { country: 'DE', city: 'Berlin' } } })).toBe(
      false,
    );
  });
  test('may be undefined: a number compared with an undefined reference is false', () => {
    const leaf = {
      fact: 'customer.age',
      operator: 'greaterThan',
      value: { fact: 'history', path: '$.days_since_last_merchant_purchase' },
    };
    expect(holds(leaf)).toBe(true);
    expect(holds(leaf, { history: { days_since_last_merchant_purchase: undefined } })).toBe(false);
  });
  test('two undefined values are equal, as in json-rules-engine', () => {
    const days = 'history.days_since_last_merchant_purchase';
    const leaf = { fact: days, operator: 'equal', value: { fact: days } };
    expect(holds(leaf, { history: { days_since_last_merchant_purchase: undefined } })).toBe(true);
  });
});

describe('history', () => {
  const visits = { fact: 'history.merchant_purchases', operator: 'greaterThan', value: 1 };
  test('is reported as used when a comparison reads it', () => {
    expect(compileCondition({ all: [T, visits] }).usesHistory).toBe(true);
  });
  test('is reported as used when a fact reference reads it', () => {
    const leaf = {
      fact: 'transaction.amount',
      operator: 'greaterThan',
      value: { fact: 'history.merchant_spend' },
    };
    expect(compileCondition({ not: leaf }).usesHistory).toBe(true);
  });
  test('is not read at all by a condition that does not use it', () => {
    const condition = compileCondition({ any: [F, { not: F }] });
    expect(condition.usesHistory).toBe(false);
    expect(condition.evaluate(contextWithoutHistory())).toBe(true);
  });
  test('is not read when an earlier part already decides', () => {
    expect(compileCondition({ any: [T, visits] }).evaluate(contextWithoutHistory())).toBe(true);
    expect(compileCondition({ all: [F, visits] }).evaluate(contextWithoutHistory())).toBe(false);
  });
});

describe('a compiled condition', () => {
  test('does not change when the JSON it came from is mutated', () => {
    const cities = ['Paris'];
    const condition = { fact: 'transaction.location.city', operator: 'in', value: cities };
    const compiled = compileCondition(condition);
    cities[0] = 'Rome';
    condition.operator = 'notIn';
    expect(compiled.evaluate(context())).toBe(true);
  });
  test('ignores name and priority, which only label and order', () => {
    const labelled = { name: 'big', priority: 5, all: [{ ...T, name: 'amount', priority: 2 }] };
    expect(holds(labelled)).toBe(true);
  });
  test('accepts name and priority of any JSON type and ignores them, as json-rules-engine does', () => {
    const odd = { name: 1, priority: 'high', all: [{ ...T, name: null, priority: 0 }] };
    expect(holds(odd)).toBe(true);
    expect(holds({ ...odd, all: [{ ...T, name: ['a'], priority: -2 }] })).toBe(true);
  });
  test('accepts the typed Condition shape', () => {
    const typed: Condition = {
      any: [{ fact: 'customer.gender', operator: 'in', value: ['female'] }],
    };
    expect(holds(typed)).toBe(true);
  });
});
