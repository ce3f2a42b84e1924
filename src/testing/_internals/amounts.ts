import fc from 'fast-check';

/** Cents from 0.01 to 1000.00 as a JSON number, e.g. `12.34` (its shortest form is exact). */
const centsNumber = fc.integer({ min: 1, max: 100_000 }).map((c) => c / 100);

/** A few cents: with a small discount, cashback rounds to 0. */
const fewCents = fc.integer({ min: 1, max: 99 }).map((c) => c / 100);

/** The same as a plain decimal string, sometimes with leading or trailing zeros. */
const centsString = fc
  .tuple(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom('', '0', '00'), fc.boolean())
  .map(([c, lead, trail]) => `${lead}${(c / 100).toFixed(2)}${trail ? '0' : ''}`);

const digit = fc.integer({ min: 0, max: 9 }).map(String);
const digits = (min: number, max: number) =>
  fc.array(digit, { minLength: min, maxLength: max }).map((d) => d.join(''));

/** Many decimals: up to 20 fractional digits, kept above zero. */
const manyDecimals = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), digits(1, 20), fc.integer({ min: 1, max: 9 }))
  .map(([i, f, last]) => `${i}.${f}${last}`);

/**
 * Huge: 10 to 12 integer digits (transaction amounts are at most 10^12), sometimes with a
 * fraction of up to 6 digits, so that some have more digits than a double holds.
 */
const huge = fc
  .tuple(fc.integer({ min: 1, max: 9 }), digits(9, 11), fc.option(digits(1, 6), { nil: undefined }))
  .map(([first, rest, f]) => `${first}${rest}${f === undefined ? '' : `.${f}`}`);

/** Any positive finite double up to 10^12, read through its shortest form (e.g. `1e-7`). */
const anyDouble = fc
  .double({ min: Number.MIN_VALUE, max: 1e12, noNaN: true, noDefaultInfinity: true })
  .filter((d) => d > 0);

/**
 * A valid amount (docs/concepts.md, Input rules): mostly cents as numbers or decimal strings, a few cents often;
 * with `wide`, also many decimals, huge values and arbitrary doubles.
 */
export function amountArbitrary(wide: boolean): fc.Arbitrary<number | string> {
  const common = [
    { weight: 6, arbitrary: centsNumber as fc.Arbitrary<number | string> },
    { weight: 2, arbitrary: centsString as fc.Arbitrary<number | string> },
    { weight: 1, arbitrary: fewCents as fc.Arbitrary<number | string> },
  ];
  if (!wide) return fc.oneof(...common);
  return fc.oneof(
    ...common,
    { weight: 1, arbitrary: manyDecimals },
    { weight: 1, arbitrary: huge },
    { weight: 1, arbitrary: anyDouble },
  );
}

/**
 * A positive decimal with at most two places, from `minCents` to `maxCents` hundredths, as a
 * number or a string.
 */
export function centsArbitrary(minCents: number, maxCents: number): fc.Arbitrary<number | string> {
  return fc
    .tuple(fc.integer({ min: minCents, max: maxCents }), fc.boolean())
    .map(([c, asString]) => (asString ? (c / 100).toFixed(2) : c / 100));
}
