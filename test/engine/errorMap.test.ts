import { describe, expect, test } from 'vitest';
import { errorMap } from '../../src/engine/errorMap.js';

const e = (key: string, message: string) => ({
  key,
  code: 'invalid_transaction' as const,
  message,
});

describe('the errors map of a request', () => {
  test('joins the distinct messages of one key in input order', () => {
    expect(errorMap([e('t1', 'a'), e('t2', 'x'), e('t1', 'b'), e('t1', 'a')])).toEqual({
      t1: 'a; b',
      t2: 'x',
    });
  });

  test('does not repeat a message that itself contains "; "', () => {
    const two = 'Invalid transaction: date is bad; amount is bad';
    expect(errorMap([e('t1', two), e('t1', two)])).toEqual({ t1: two });
  });

  test('keeps a message that equals the first part of an earlier one', () => {
    const two = 'Invalid transaction: date is bad; amount is bad';
    const one = 'Invalid transaction: date is bad';
    expect(errorMap([e('t1', two), e('t1', one)])).toEqual({ t1: `${two}; ${one}` });
  });
});
