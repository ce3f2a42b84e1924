import { describe, expect, test } from 'vitest';
import { explain } from '../../src/core/explain.js';
import { customer, offer, tx } from '../fixtures.js';

const morning = {
  all: [
    { fact: 'transaction.hour', operator: 'lessThan', value: 9 },
    { fact: 'transaction.amount', operator: 'greaterThanInclusive', value: 5 },
  ],
};

describe('explain on an offer with conditions', () => {
  test('shows every leaf of a failed condition and names the false ones in the detail', () => {
    const e = explain(tx(), { offers: [offer({ conditions: morning })], customer: customer() });
    const [candidate] = e.candidates;
    expect(candidate?.failed).toEqual({
      check: 'conditions',
      detail: 'the conditions are not met; false: transaction.hour (9) lessThan 9',
    });
    expect(candidate?.conditions).toEqual([
      expect.objectContaining({ fact: 'transaction.hour', factValue: 9, value: 9, result: false }),
      expect.objectContaining({
        fact: 'transaction.amount',
        factValue: 10,
        value: 5,
        result: true,
      }),
    ]);
  });

  test('shows the leaves of a matched offer and of one that failed an earlier check', () => {
    const early = tx({ date: '2025-06-02T08:15:00.000' });
    const matched = explain(early, {
      offers: [offer({ conditions: morning })],
      customer: customer(),
    });
    expect(matched.candidates[0]?.conditions?.map((leaf) => leaf.result)).toEqual([true, true]);
    const old = offer({ conditions: morning, age: ['60+'] });
    const failed = explain(early, { offers: [old], customer: customer() });
    expect(failed.candidates[0]?.failed?.check).toBe('age');
    expect(failed.candidates[0]?.conditions).toHaveLength(2);
  });

  test('has no conditions entry for an offer without conditions', () => {
    const e = explain(tx(), { offers: [offer()], customer: customer() });
    expect(e.candidates[0]).not.toHaveProperty('conditions');
  });
});
