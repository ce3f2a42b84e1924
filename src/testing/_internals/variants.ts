import fc from 'fast-check';
import { merchantKey } from '../../model/normalise.js';

/** ASCII letters and digits to their full-width forms, which NFKC folds back. */
function fullWidth(text: string): string {
  return text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
}

/**
 * Spellings of a merchant name with the same match key (docs/concepts.md, Eligibility: NFKC, trimmed, inner white
 * space collapsed, lower-cased): case, padding, doubled or non-breaking spaces, full-width forms.
 * Spellings whose key would differ (possible for some non-ASCII names) are dropped.
 */
function merchantVariants(name: string): readonly string[] {
  const candidates = [
    name,
    name.toUpperCase(),
    name.toLowerCase(),
    `  ${name}\t`,
    name.replace(/ /g, '  '),
    name.replace(/ /g, '\u00a0'),
    fullWidth(name),
  ];
  const key = merchantKey(name);
  return [...new Set(candidates.filter((c) => merchantKey(c) === key))];
}

/**
 * A name from the pool, in one of its spellings (the plain one most often).
 */
export function merchantNameArbitrary(
  pool: readonly string[],
  variants: boolean,
): fc.Arbitrary<string> {
  if (pool.length === 0) throw new RangeError('the merchant pool must not be empty');
  const name = fc.constantFrom(...pool);
  if (!variants) return name;
  return name.chain((n) => {
    const [plain = n, ...others] = merchantVariants(n);
    return others.length === 0
      ? fc.constant(plain)
      : fc.oneof({ weight: 3, arbitrary: fc.constant(plain) }, fc.constantFrom(...others));
  });
}

/**
 * A gender in one of its spellings: as is, capitalised, upper-cased or padded.
 */
export function genderArbitrary(pool: readonly string[]): fc.Arbitrary<string> {
  if (pool.length === 0) throw new RangeError('the gender pool must not be empty');
  return fc
    .tuple(fc.constantFrom(...pool), fc.constantFrom('plain', 'upper', 'title', 'padded'))
    .map(([g, how]) => {
      if (how === 'upper') return g.toUpperCase();
      if (how === 'title') return g.charAt(0).toUpperCase() + g.slice(1);
      if (how === 'padded') return ` ${g} `;
      return g;
    });
}
