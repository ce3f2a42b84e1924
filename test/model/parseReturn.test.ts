import { describe, expect, test } from 'vitest';
import { parseReturn } from '../../src/model/parseReturn.js';
import { parseTransaction } from '../../src/model/parseTransaction.js';
import { tx } from '../fixtures.js';

const ret = (over: Record<string, unknown> = {}) => ({
  return_id: 'r1',
  transaction_id: 't1',
  date: '2025-06-05T10:00:00',
  amount: 4,
  ...over,
});

function issuesOf(input: unknown) {
  const r = parseReturn(input, 2, 'UTC');
  return r.ok ? [] : r.issues;
}

describe('parseReturn', () => {
  test('trims ids, reads the date as wall-clock time and the amount exactly', () => {
    const r = parseReturn(
      ret({ return_id: ' r1 ', transaction_id: ' t1\t', amount: '2.50' }),
      0,
      'UTC',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.returnId).toBe('r1');
    expect(r.value.transactionId).toBe('t1');
    expect(r.value.when.text).toBe('2025-06-05T10:00:00.000');
    expect(r.value.amount?.text).toBe('2.5');
  });

  test('leaves the amount undefined when it is absent: all that is left is returned', () => {
    const r = parseReturn(ret({ amount: undefined }), 0, 'UTC');
    expect(r.ok && r.value.amount).toBeUndefined();
  });

  test('converts a date with an offset into the engine zone, as a transaction date', () => {
    const r = parseReturn(ret({ date: '2025-06-05T23:30:00Z' }), 0, 'Europe/Paris');
    expect(r.ok && r.value.when.text).toBe('2025-06-06T01:30:00.000');
  });

  test('names every missing field, keyed by #index without a usable return_id', () => {
    const r = parseReturn({}, 2, 'UTC');
    expect(r).toEqual({
      ok: false,
      key: '#2',
      issues: [
        { path: 'return_id', message: 'is required' },
        { path: 'transaction_id', message: 'is required' },
        { path: 'date', message: 'is required' },
      ],
    });
  });

  test('is keyed by return_id when only other fields are wrong', () => {
    const r = parseReturn(ret({ amount: 0 }), 2, 'UTC');
    expect(r.ok ? undefined : r.key).toBe('r1');
  });

  test('refuses a return_id over 128 characters, and an item that is not an object', () => {
    expect(issuesOf(ret({ return_id: 'x'.repeat(129) }))).toEqual([
      { path: 'return_id', message: 'must be at most 128 characters' },
    ]);
    expect(issuesOf(ret({ return_id: '   ' }))).toEqual([
      { path: 'return_id', message: 'must not be empty' },
    ]);
    expect(issuesOf([])).toEqual([{ path: '', message: 'must be an object' }]);
  });

  test('reports the date and the amount exactly as a transaction does', () => {
    const bad = [
      { date: '2025-02-30T10:00:00', amount: -1 },
      { date: 5, amount: '1e3' },
      { date: '2025-06-05', amount: 1e13 },
      { date: '2025-06-05T10:00:00', amount: Number.NaN },
    ];
    for (const b of bad) {
      const t = parseTransaction(tx(b), 0, 'UTC');
      const fromTx = t.ok ? [] : t.issues.filter((i) => i.path === 'date' || i.path === 'amount');
      expect(issuesOf(ret(b))).toEqual(fromTx);
      expect(fromTx.length).toBeGreaterThan(0);
    }
  });
});
