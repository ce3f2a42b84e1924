import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseAmount } from '../../src/model/money.js';

describe('parseAmount', () => {
  test('reads 12.34 exactly through its shortest decimal form', () => {
    const a = parseAmount(12.34);
    expect(typeof a).toBe('object');
    if (typeof a === 'string') return;
    expect(a.text).toBe('12.34');
    expect(a.units).toBe(1234);
    expect(a.scale).toBe(2);
  });

  test('accepts a plain decimal string and drops insignificant zeros', () => {
    const a = parseAmount('007.500');
    expect(typeof a !== 'string' && a.text).toBe('7.5');
  });

  test('reads exponent forms of tiny and huge numbers', () => {
    const tiny = parseAmount(1e-7);
    const huge = parseAmount(1e21);
    expect(typeof tiny !== 'string' && tiny.text).toBe('0.0000001');
    expect(typeof huge !== 'string' && huge.text).toBe('1000000000000000000000');
    expect(typeof huge !== 'string' && Number.isNaN(huge.units)).toBe(true);
  });

  test.each([
    [0, 'must be greater than 0'],
    [-1, 'must be greater than 0'],
    ['0.00', 'must be greater than 0'],
    [Number.NaN, 'must be a finite number'],
    [Number.POSITIVE_INFINITY, 'must be a finite number'],
    ['1e5', 'must be a number or a plain decimal string'],
    ['-3', 'must be a number or a plain decimal string'],
    [' 3', 'must be a number or a plain decimal string'],
    [null, 'must be a number or a plain decimal string'],
    [true, 'must be a number or a plain decimal string'],
  ])('rejects %s', (value, reason) => {
    expect(parseAmount(value)).toBe(reason);
  });
});

describe('parseAmount on numbers', () => {
  test('agrees with decimal.js reading String(n), for any positive double', () => {
    fc.assert(
      fc.property(
        fc.double({ min: Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }),
        (n) => {
          const a = parseAmount(n);
          if (typeof a === 'string') throw new Error(a);
          const expected = new Decimal(String(n));
          expect(a.decimal.eq(expected)).toBe(true);
          expect(a.text).toBe(expected.toFixed());
          if (!Number.isNaN(a.units))
            expect(new Decimal(a.units).div(new Decimal(10).pow(a.scale)).eq(expected)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('gives the same exact amount for a number and its decimal string', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 12 }),
        fc.integer({ min: 0, max: 4 }),
        (int, places) => {
          const n = int / 10 ** places;
          const a = parseAmount(n);
          const b = parseAmount(String(n));
          expect(
            typeof a !== 'string' && typeof b !== 'string' && [a.text, a.units, a.scale],
          ).toEqual(typeof b !== 'string' && [b.text, b.units, b.scale]);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
