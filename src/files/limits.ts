// How long a line, a CSV field or a JSON value may be, and how deep JSON may nest: the bounds that
// keep a hostile file from stalling a reader or filling memory (docs/replay.md, Limits).
import { assertKnownKeys } from '../model/knownKeys.js';
import { wholeNumber } from '../model/wholeNumber.js';
import { FileReadError } from './records.js';

/** The bounds of what one record of a file may hold; every field is optional. @public */
export interface ReadLimits {
  /**
   * The longest line of NDJSON, and the longest row of CSV (quoted line breaks included), in
   * bytes of UTF-8, without its line break.
   * @defaultValue 8 MiB (8388608)
   */
  readonly maxLineBytes?: number;
  /**
   * The longest field of a CSV row, in bytes of UTF-8 of its text (without the quotes around it).
   * @defaultValue 1 MiB (1048576)
   */
  readonly maxFieldBytes?: number;
  /**
   * The longest item of a JSON array, in bytes of UTF-8, with the white space before it.
   * @defaultValue 8 MiB (8388608)
   */
  readonly maxValueBytes?: number;
  /**
   * How deep the arrays and objects of a JSON file may nest, the file's own array counting as 1.
   * @defaultValue 64
   */
  readonly maxDepth?: number;
}

/** One of the limits of {@link ReadLimits}. @public */
export type ReadLimit = keyof ReadLimits;

/** The limits when none is given. */
export const DEFAULT_READ_LIMITS: Required<ReadLimits> = Object.freeze({
  maxLineBytes: 8 * 2 ** 20,
  maxFieldBytes: 2 ** 20,
  maxValueBytes: 8 * 2 ** 20,
  maxDepth: 64,
});

const LIMIT_KEYS: readonly ReadLimit[] = [
  'maxLineBytes',
  'maxFieldBytes',
  'maxValueBytes',
  'maxDepth',
];

/**
 * The largest value of each limit: a line, field or value is held as one string, and V8's longest
 * string is just under 512 Mi characters; a value nested deeper than 1000 would overflow the stack
 * of the code that walks it.
 */
const LIMIT_MAX: Readonly<Record<ReadLimit, number>> = {
  maxLineBytes: 2 ** 29,
  maxFieldBytes: 2 ** 29,
  maxValueBytes: 2 ** 29,
  maxDepth: 1000,
};

/**
 * A line, field or value past its limit, or JSON nested too deep: the file is not read further.
 * @public
 */
export class ReadLimitError extends FileReadError {
  /** The line of the file where the record over the limit starts, from 1. */
  readonly line: number;
  /** Which limit. */
  readonly limit: ReadLimit;
  /** Its value. */
  readonly max: number;
  /** What is over the limit, in words, e.g. `a field is longer than 1048576 bytes`. */
  readonly detail: string;

  /**
   * @param file - the file
   * @param line - the line where the record over the limit starts
   * @param limit - which limit
   * @param max - its value
   * @param detail - what is over it, in words
   */
  constructor(file: string, line: number, limit: ReadLimit, max: number, detail: string) {
    super(file, `line ${line}: ${detail} (the limit ${limit})`);
    this.name = 'ReadLimitError';
    this.line = line;
    this.limit = limit;
    this.max = max;
    this.detail = detail;
  }
}

/**
 * The error for a line, a CSV field or a JSON value longer than its limit in bytes.
 * @param file - the file
 * @param line - the line where the record over the limit starts
 * @param limit - the byte limit passed
 * @param max - its value
 * @param what - what is too long, as the message names it: `the line`, `a field`, `item 3`
 * @returns the error
 */
export function tooLongError(
  file: string,
  line: number,
  limit: Exclude<ReadLimit, 'maxDepth'>,
  max: number,
  what: string,
): ReadLimitError {
  return new ReadLimitError(file, line, limit, max, `${what} is longer than ${max} bytes`);
}

/**
 * Checks limits and completes them: those given, else the defaults.
 * @param limits - the limits given, if any
 * @returns every limit
 * @throws TypeError for an unknown key or a value that is not a number; RangeError for a number
 *   that is not a whole number from 1 to 512 Mi (bytes) or 1000 (`maxDepth`)
 */
export function resolveReadLimits(limits?: ReadLimits): Required<ReadLimits> {
  assertKnownKeys(limits, LIMIT_KEYS, 'read limits', 'limit');
  const out: Record<ReadLimit, number> = { ...DEFAULT_READ_LIMITS };
  for (const key of LIMIT_KEYS) {
    const value = limits?.[key];
    if (value !== undefined) out[key] = wholeNumber(value, key, { min: 1, max: LIMIT_MAX[key] });
  }
  return out;
}

/**
 * Whether a text is longer than `max` bytes of UTF-8, without encoding it when its length
 * decides: a UTF-16 code unit is 1 to 3 bytes.
 * @param text - the text
 * @param max - the limit in bytes
 * @returns true when it is longer
 */
export function longerThan(text: string, max: number): boolean {
  if (text.length > max) return true;
  if (text.length * 3 <= max) return false;
  return Buffer.byteLength(text) > max;
}
