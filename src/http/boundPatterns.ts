import { MAX_DECIMALS, MAX_INTEGER_DIGITS, MAX_TRANSACTION_AMOUNT } from '../model/money.js';
import { OFFER_ID_TEXT_DIGITS } from '../model/schemas.js';

// The bounds the server puts on offer ids and amounts written as strings, as JSON Schema can say
// them: a string has no `maximum`, so the bound is a pattern. Patterns use no lookaround, and no
// repetition above 1,000, so that validators outside JavaScript (RE2 among them) read them too.

type JsonSchema = Record<string, unknown>;

/** `[a-b]`, or the digit itself when a equals b. */
const digitRange = (a: number, b: number) => (a === b ? String(a) : `[${a}-${b}]`);

/** `count` digits of any value. */
const anyDigits = (count: number) => (count === 0 ? '' : count === 1 ? '[0-9]' : `[0-9]{${count}}`);

/**
 * A regular expression source (without anchors) of the whole numbers from 1 to `bound`, written
 * without leading zeros: numbers of fewer digits than `bound`, then those of as many digits that
 * follow the bound's first digits and have a lower one next.
 * @param bound - a whole number of at least 1, in decimal digits without leading zeros
 * @returns the source, one alternative after another
 */
export function wholeNumbersUpTo(bound: string): string {
  if (!/^[1-9][0-9]*$/.test(bound)) {
    throw new RangeError(`wholeNumbersUpTo: bound must be a whole number from 1, got '${bound}'`);
  }
  const n = bound.length;
  if (/^9+$/.test(bound)) return `[1-9]${n === 1 ? '' : `[0-9]{0,${n - 1}}`}`;
  const alternatives = n === 1 ? [] : [`[1-9]${n === 2 ? '' : `[0-9]{0,${n - 2}}`}`];
  for (let i = 0; i < n; i++) {
    const digit = Number(bound[i]);
    const low = i === 0 ? 1 : 0;
    const rest = bound.slice(i + 1);
    // When only nines follow, this digit itself may be the bound's: the alternatives end here.
    if (/^9*$/.test(rest)) {
      alternatives.push(`${bound.slice(0, i)}${digitRange(low, digit)}${anyDigits(rest.length)}`);
      break;
    }
    if (digit > low) {
      alternatives.push(
        `${bound.slice(0, i)}${digitRange(low, digit - 1)}${anyDigits(rest.length)}`,
      );
    }
  }
  return alternatives.join('|');
}

/**
 * An activation's `offer_id` as a string (`OfferIdTextSchema`): at most 16 digits, leading zeros
 * included, that write an offer id from 1 to the largest safe integer.
 * @returns the JSON Schema of the string form
 */
export function offerIdTextJsonSchema(): JsonSchema {
  return {
    type: 'string',
    maxLength: OFFER_ID_TEXT_DIGITS,
    pattern: `^0*(?:${wholeNumbersUpTo(String(Number.MAX_SAFE_INTEGER))})$`,
  };
}

/**
 * The amount of a transaction, history transaction or return (`TransactionAmountSchema`): a JSON
 * number greater than 0 and at most 10^12, or a plain decimal string of such a value with at most
 * {@link MAX_DECIMALS} digits after the point, trailing zeros aside. Leading zeros are not
 * counted either; below 10^12 the digits before the point (at most 13) are far within
 * {@link MAX_INTEGER_DIGITS}. A JSON number is read as the nearest double, whose shortest form
 * keeps within both digit bounds.
 * @returns the JSON Schema of both forms
 */
export function transactionAmountJsonSchema(): JsonSchema {
  const max = String(MAX_TRANSACTION_AMOUNT);
  const decimals = `\\.[0-9]{1,${MAX_DECIMALS}}0*`;
  const text = [
    // A whole part from 1 to just below the bound, with any decimals.
    `0*(?:${wholeNumbersUpTo(String(MAX_TRANSACTION_AMOUNT - 1))})(?:${decimals})?`,
    // A whole part of 0: some decimal digit after the point is not 0.
    `0+\\.[0-9]{0,${MAX_DECIMALS - 1}}[1-9]0*`,
    // The bound itself.
    `0*${max}(?:\\.0+)?`,
  ];
  return {
    description:
      `Greater than 0 and at most ${max}; as a string, a plain decimal with at most ` +
      `${MAX_INTEGER_DIGITS} digits before the point (leading zeros aside) and ${MAX_DECIMALS} ` +
      'after it (trailing zeros aside)',
    anyOf: [
      { type: 'number', exclusiveMinimum: 0, maximum: MAX_TRANSACTION_AMOUNT },
      { type: 'string', pattern: `^(?:${text.join('|')})$` },
    ],
  };
}
