import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseTransaction } from '../../src/model/parseTransaction.js';
import { HistoryTransactionSchema, TransactionSchema } from '../../src/model/schemas.js';
import { history, tx } from '../fixtures.js';

function issuesOf(input: unknown, asHistory = false) {
  const r = parseTransaction(input, 3, 'UTC', asHistory);
  return r.ok ? [] : r.issues;
}

describe('parseTransaction', () => {
  test('normalises once: trimmed ids, wall-clock date, exact amount, merchant key', () => {
    const r = parseTransaction(
      tx({
        transaction_id: '  t1 ',
        amount: '12.50',
        merchant: { id: 'm', name: ' Coffee  HOUSE', category_code: '1' },
      }),
      0,
      'UTC',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.transactionId).toBe('t1');
    expect(r.value.amount.text).toBe('12.5');
    expect(r.value.merchantKey).toBe('coffee house');
    expect(r.value.when.text).toBe('2025-06-02T09:15:00.000');
  });

  test('requires all seven fields of a submitted transaction and names each missing one', () => {
    expect(issuesOf({}).map((i) => i.path)).toEqual([
      'transaction_id',
      'customer_id',
      'description',
      'date',
      'amount',
      'merchant',
      'location',
    ]);
  });

  test('allows an empty description', () => {
    expect(issuesOf(tx({ description: '' }))).toEqual([]);
  });

  test('rejects an empty merchant name, a blank id and an id over 128 characters', () => {
    expect(issuesOf(tx({ merchant: { id: '', name: '  ', category_code: '' } }))).toEqual([
      { path: 'merchant.name', message: 'must not be empty' },
    ]);
    expect(issuesOf(tx({ transaction_id: '   ' }))).toEqual([
      { path: 'transaction_id', message: 'must not be empty' },
    ]);
    expect(issuesOf(tx({ customer_id: 'x'.repeat(129) }))).toEqual([
      { path: 'customer_id', message: 'must be at most 128 characters' },
    ]);
  });

  test('keys an item without a usable id by its index', () => {
    const r = parseTransaction({ amount: 1 }, 7, 'UTC');
    expect(r.ok === false && r.key).toBe('#7');
    const withId = parseTransaction({ transaction_id: ' a ', amount: 1 }, 7, 'UTC');
    expect(withId.ok === false && withId.key).toBe('a');
  });

  test('reads an optional channel, online or in_store, and refuses any other value, history too', () => {
    const parsed = (t: Record<string, unknown>, asHistory = false) => {
      const r = parseTransaction(t, 0, 'UTC', asHistory);
      return r.ok ? r.value.channel : r.issues;
    };
    expect(parsed(tx())).toBeUndefined();
    expect(parsed(tx({ channel: 'online' }))).toBe('online');
    expect(parsed(history({ channel: 'in_store' }), true)).toBe('in_store');
    for (const channel of ['web', 'Online', '', null, 1]) {
      expect(parsed(tx({ channel }))).toEqual([
        { path: 'channel', message: "must be one of 'online', 'in_store'" },
      ]);
    }
  });

  test('accepts a history item with only the required fields', () => {
    expect(issuesOf(history(), true)).toEqual([]);
    expect(issuesOf(history({ location: 'Paris' }), true)).toEqual([
      { path: 'location', message: 'must be an object' },
    ]);
    expect(issuesOf({ transaction_id: 'h' }, true).map((i) => i.path)).toEqual([
      'customer_id',
      'date',
      'amount',
      'merchant',
    ]);
  });
});

/** Values that are sometimes right and often wrong, for every field. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom(
    '',
    ' ',
    'x'.repeat(129),
    '2025-02-30T10:00:00',
    '2025-06-02T10:00:00.123',
    '2025-06-02T10:00:00+02:00',
    '0',
    '0.00',
    '12.5',
    '1e5',
    '-1',
    'a\u0000',
    'y-\ud800',
    '\udc00',
    '\ud83d\ude00',
    `1.${'5'.repeat(1001)}`,
    'online',
    'in_store',
    'ONLINE',
  ),
  fc.double(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(null, undefined, true, [], {}),
);

function mutate(base: Record<string, unknown>) {
  return fc
    .array(
      fc.tuple(
        fc.constantFrom(
          ...Object.keys(base),
          'merchant.name',
          'merchant.id',
          'location.city',
          'channel',
          'extra',
        ),
        anyValue,
      ),
      {
        maxLength: 3,
      },
    )
    .map((edits) => {
      const copy: Record<string, unknown> = structuredClone(base);
      for (const [path, value] of edits) {
        const [head, leaf] = path.split('.') as [string, string | undefined];
        if (leaf === undefined) copy[head] = value;
        else if (typeof copy[head] === 'object' && copy[head] !== null)
          (copy[head] as Record<string, unknown>)[leaf] = value;
      }
      return copy;
    });
}

describe('the hand-written validator', () => {
  test('accepts exactly what TransactionSchema accepts', () => {
    fc.assert(
      fc.property(fc.oneof(mutate(tx()), anyValue), (input) => {
        expect(parseTransaction(input, 0, 'UTC').ok).toBe(
          TransactionSchema.safeParse(input).success,
        );
      }),
      { numRuns: 3000 },
    );
  });

  test('accepts exactly what HistoryTransactionSchema accepts', () => {
    fc.assert(
      fc.property(fc.oneof(mutate(history()), mutate(tx()), anyValue), (input) => {
        expect(parseTransaction(input, 0, 'UTC', true).ok).toBe(
          HistoryTransactionSchema.safeParse(input).success,
        );
      }),
      { numRuns: 3000 },
    );
  });
});

describe('amount bound', () => {
  test('a transaction amount is at most 10^12, as a number or a string, history too', () => {
    const over = { path: 'amount', message: 'must be at most 1000000000000' };
    for (const amount of [1e12, '1000000000000', '1000000000000.000', '999999999999.99']) {
      expect(issuesOf(tx({ amount }))).toEqual([]);
      expect(TransactionSchema.safeParse(tx({ amount })).success).toBe(true);
    }
    for (const amount of [1e12 + 0.01, '1000000000000.01', '9'.repeat(400), 1e300, 1e21]) {
      expect(issuesOf(tx({ amount }))).toEqual([over]);
      expect(issuesOf(history({ amount }), true)).toEqual([over]);
      expect(TransactionSchema.safeParse(tx({ amount })).success).toBe(false);
      expect(HistoryTransactionSchema.safeParse(history({ amount })).success).toBe(false);
    }
  });
});
