import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseAmount } from '../../src/model/money.js';
import { parseCustomer } from '../../src/model/parseCustomer.js';
import { parseTransaction } from '../../src/model/parseTransaction.js';
import {
  AmountSchema,
  CustomerSchema,
  HistoryTransactionSchema,
  TransactionSchema,
} from '../../src/model/schemas.js';
import { textIssue } from '../../src/model/storableText.js';
import { customer, tx } from '../fixtures.js';

const NUL = 'must not contain the character U+0000';
const LONE = 'must not contain an unpaired surrogate (U+D800 to U+DFFF without its pair)';

/** `base` with the field at a dotted path set to `value`. */
function withField(base: Record<string, unknown>, path: string, value: unknown) {
  const copy: Record<string, unknown> = structuredClone(base);
  const [head, leaf] = path.split('.') as [string, string | undefined];
  if (leaf === undefined) copy[head] = value;
  else copy[head] = { ...(copy[head] as Record<string, unknown>), [leaf]: value };
  return copy;
}

describe('textIssue', () => {
  test('refuses U+0000 and unpaired surrogates, high or low, anywhere; keeps pairs', () => {
    for (const s of ['\u0000', 'a\u0000', '\u0000b']) expect(textIssue(s)).toBe(NUL);
    for (const s of ['y-\ud800', '\udc00', 'a\udbffb', '\udc00\ud800', '😀\ud83d']) {
      expect(textIssue(s)).toBe(LONE);
    }
    for (const s of ['', 'plain', '😀', 'a\ud800\udc00b', '\u0001\uffff', 'é\u00a0']) {
      expect(textIssue(s)).toBeUndefined();
    }
  });

  test('agrees with a code-point reading: refused exactly when U+0000 or U+D800–U+DFFF is one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const bad = [...s].some((c) => {
          const cp = c.codePointAt(0) as number;
          return cp === 0 || (cp >= 0xd800 && cp <= 0xdfff);
        });
        expect(textIssue(s) !== undefined).toBe(bad);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('every string field of an item must be storable', () => {
  const txFields = [
    'transaction_id',
    'customer_id',
    'description',
    'merchant.id',
    'merchant.name',
    'merchant.category_code',
    'location.country',
    'location.city',
  ];

  test.each(txFields)('a transaction with U+0000 or a lone surrogate in %s is invalid', (path) => {
    for (const [value, message] of [
      ['x\u0000y', NUL],
      ['x\ud800', LONE],
      ['\udfffx', LONE],
    ] as const) {
      for (const asHistory of [false, true]) {
        const input = withField(tx(), path, value);
        const r = parseTransaction(input, 5, 'UTC', asHistory);
        expect(r.ok).toBe(false);
        if (r.ok) continue;
        expect(r.issues).toEqual([{ path, message }]);
        // An id that cannot be stored does not name the item.
        expect(r.key).toBe(path === 'transaction_id' ? '#5' : 't1');
        const schema = asHistory ? HistoryTransactionSchema : TransactionSchema;
        expect(schema.safeParse(input).success).toBe(false);
      }
    }
    const paired = withField(tx(), path, 'x\ud83d\ude00');
    expect(parseTransaction(paired, 0, 'UTC').ok).toBe(true);
    expect(TransactionSchema.safeParse(paired).success).toBe(true);
  });

  test.each(['customer_id', 'gender', 'location.country', 'location.city'])(
    'a customer with U+0000 or a lone surrogate in %s is invalid',
    (path) => {
      for (const [value, message] of [
        ['x\u0000', NUL],
        ['y-\ud800', LONE],
      ] as const) {
        const input = withField(customer(), path, value);
        const r = parseCustomer(input, 2);
        expect(r.ok).toBe(false);
        if (r.ok) continue;
        expect(r.issues).toEqual([{ path, message }]);
        expect(r.key).toBe(path === 'customer_id' ? '#2' : 'c1');
      }
      expect(CustomerSchema.safeParse(withField(customer(), path, 'x\ud83d\ude00')).success).toBe(
        true,
      );
    },
  );
});

describe('amount digits', () => {
  const TOO_MANY = 'must have at most 1000 digits before the decimal point and 1000 after it';

  test('at most 1,000 digits before the point and 1,000 after, zeros that carry no value aside', () => {
    expect(typeof parseAmount(`1.${'1'.repeat(1000)}`)).toBe('object');
    expect(typeof parseAmount(`${'1'.repeat(1000)}.5`)).toBe('object');
    expect(typeof parseAmount(`${'0'.repeat(5000)}1.5${'0'.repeat(5000)}`)).toBe('object');
    expect(parseAmount(`1.${'1'.repeat(1001)}`)).toBe(TOO_MANY);
    expect(parseAmount(`1.${'1'.repeat(20_000)}`)).toBe(TOO_MANY);
    expect(parseAmount(`${'1'.repeat(1001)}`)).toBe(TOO_MANY);
    expect(AmountSchema.safeParse(`1.${'1'.repeat(20_000)}`).error?.issues[0]?.message).toBe(
      TOO_MANY,
    );
    const input = tx({ amount: `1.${'1'.repeat(20_000)}` });
    const r = parseTransaction(input, 0, 'UTC');
    expect(r.ok === false && r.issues).toEqual([{ path: 'amount', message: TOO_MANY }]);
    expect(TransactionSchema.safeParse(input).success).toBe(false);
  });

  test('never refuses a JSON number: every double keeps within the limits', () => {
    for (const n of [Number.MIN_VALUE, 2.2250738585072014e-308, Number.MAX_VALUE]) {
      expect(typeof parseAmount(n)).toBe('object');
    }
  });
});
