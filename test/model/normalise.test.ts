import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { merchantKey, normaliseGender } from '../../src/model/normalise.js';

/** The rule of docs/concepts.md (Eligibility, merchant), written plainly: the fast path must agree with it. */
const reference = (name: string) =>
  name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

describe('merchantKey', () => {
  test('applies NFKC, trims, folds white space and lower-cases', () => {
    expect(merchantKey('  Coffee\u00a0\t HOUSE ')).toBe('coffee house');
    expect(merchantKey('Ｃａｆé')).toBe('café');
    expect(merchantKey('ﬁne Foods')).toBe('fine foods');
  });

  test('takes the ASCII fast path only where it agrees with the full rule', () => {
    const pieces = fc.constantFrom(
      'a',
      'B',
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      'é',
      'ﬁ',
      'Ｃ',
      '-',
      '.',
      "'",
      'Z9',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(pieces, { maxLength: 12 }).map((p) => p.join('')),
        ),
        (name) => {
          expect(merchantKey(name)).toBe(reference(name));
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('normaliseGender', () => {
  test('trims and lower-cases', () => {
    expect(normaliseGender(' Female ')).toBe('female');
  });
});
