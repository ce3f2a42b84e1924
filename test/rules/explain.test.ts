import { describe, expect, test } from 'vitest';
import { compileCondition } from '../../src/rules/index.js';
import { context } from './_fixtures.js';

describe('CompiledCondition.explain', () => {
  const condition = compileCondition({
    any: [
      { fact: 'transaction.amount', operator: 'greaterThan', value: 500 },
      {
        fact: 'customer',
        path: '$.location.city',
        operator: 'not:someValue:equal',
        value: ['Rome'],
      },
      {
        fact: 'transaction.amount',
        operator: 'greaterThan',
        value: { fact: 'history', path: '$.merchant_spend' },
      },
    ],
  });

  test('reports every leaf with fact value, operator, value and result, even after any is decided', () => {
    expect(condition.explain(context())).toEqual([
      {
        path: 'conditions.any[0]',
        fact: 'transaction.amount',
        factValue: 100,
        operator: 'greaterThan',
        value: 500,
        result: false,
      },
      {
        path: 'conditions.any[1]',
        fact: 'customer.location.city',
        factValue: 'Lyon',
        operator: 'not:someValue:equal',
        value: ['Rome'],
        result: true,
      },
      {
        path: 'conditions.any[2]',
        fact: 'transaction.amount',
        factValue: 100,
        operator: 'greaterThan',
        value: 45.5,
        valueFact: 'history.merchant_spend',
        result: true,
      },
    ]);
  });

  test('gives each leaf the result evaluate gives it alone', () => {
    const ctx = context({ transaction: { amount: 600 } });
    expect(condition.explain(ctx).map((leaf) => leaf.result)).toEqual([true, true, true]);
  });

  test('reports a missing fact as undefined', () => {
    const missing = compileCondition({
      fact: 'history.days_since_last_merchant_purchase',
      operator: 'lessThan',
      value: 7,
    });
    const [leaf] = missing.explain(
      context({ history: { days_since_last_merchant_purchase: undefined } }),
    );
    expect(leaf).toMatchObject({ factValue: undefined, result: false });
  });
});
