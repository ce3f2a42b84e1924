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
