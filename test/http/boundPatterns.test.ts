/**
 * The patterns the OpenAPI document states bounds with (src/http/boundPatterns.ts): the whole
 * numbers up to a bound are matched exactly, whatever the bound.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { wholeNumbersUpTo } from '../../src/http/boundPatterns.js';

/** A whole number from 1, in digits without leading zeros. */
const wholeNumber = fc
  .tuple(
    fc.constantFrom(...'123456789'),
    fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 19 }),
  )
  .map(([first, rest]) => first + rest);

describe('wholeNumbersUpTo', () => {
  test('matches exactly the numbers from 1 to the bound written without leading zeros', () => {
    fc.assert(
      fc.property(
        wholeNumber,
        fc.array(fc.oneof(wholeNumber, fc.string({ unit: fc.constantFrom(...'0123456789') }))),
        (bound, candidates) => {
          const re = new RegExp(`^(?:${wholeNumbersUpTo(bound)})$`, 'u');
          // Candidates near the bound too: one above and one below it, the bound itself, and
          // the bound with any one of its digits changed (as long as it, above it or below it).
          const near = [BigInt(bound) - 1n, BigInt(bound), BigInt(bound) + 1n].map(String);
          for (let i = 0; i < bound.length; i++) {
            for (const d of '0123456789') near.push(bound.slice(0, i) + d + bound.slice(i + 1));
          }
          for (const candidate of [...candidates, ...near]) {
            const expected = /^[1-9][0-9]*$/.test(candidate) && BigInt(candidate) <= BigInt(bound);
            expect(re.test(candidate), `${candidate} against ${bound}`).toBe(expected);
          }
        },
      ),
    );
  });

  test('writes a bound of nines, and the largest safe integer, compactly', () => {
    expect(wholeNumbersUpTo('999999999999')).toBe('[1-9][0-9]{0,11}');
    expect(wholeNumbersUpTo('1')).toBe('1');
    expect(wholeNumbersUpTo('9007199254740991').split('|')).toHaveLength(14);
  });

  test('refuses a bound that is not a whole number from 1 without leading zeros', () => {
    for (const bad of ['', '0', '007', '1.5', '-3']) {
      expect(() => wholeNumbersUpTo(bad), bad).toThrow(RangeError);
    }
  });
});
