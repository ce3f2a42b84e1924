// Which partition of `cashback replay --workers N` owns a customer: every record that names a
// customer (the customer itself, its history, its transactions) goes to the same one, so a
// partition holds only its own customers (docs/replay.md, Workers).
import { KeyFinder } from './KeyFinder.js';

/**
 * The partition of a customer id's hash. Partition 0 is replayed by the thread that also reads,
 * routes and merges, so it gets half the share of each of the others: of `2N - 1` slots, one.
 */
function partitionOfHash(h: number, partitions: number): number {
  const slot = (h >>> 0) % (2 * partitions - 1);
  return slot === 0 ? 0 : 1 + ((slot - 1) >> 1);
}

/**
 * The partition of a customer id, trimmed as the engine reads it.
 * @param raw - the id as sent
 * @param partitions - how many partitions
 * @returns a partition from 0 to `partitions - 1`
 */
export function partitionOfId(raw: string, partitions: number): number {
  const id = raw.trim();
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  return partitionOfHash(h, partitions);
}

/**
 * The partition of a record. One with no string `customer_id` is invalid (as a customer and as a
 * transaction) wherever it goes: partition 0 takes it.
 * @param record - a customer or transaction as read
 * @param partitions - how many partitions
 * @returns its partition
 */
export function partitionOf(record: unknown, partitions: number): number {
  const id = (record as { customer_id?: unknown } | null)?.customer_id;
  return typeof id === 'string' ? partitionOfId(id, partitions) : 0;
}

const KEY = Buffer.from('"customer_id"');
const QUOTE = 0x22;
const COLON = 0x3a;
const SPACE = 0x20;
const BACKSLASH = 0x5c;

/** The first position from `i` before `end` that is not JSON white space. */
export function skipSpace(bytes: Uint8Array, i: number, end: number): number {
  let at = i;
  while (at < end && (bytes[at] === SPACE || bytes[at] === 0x09 || bytes[at] === 0x0d)) at++;
  return at;
}

/**
 * The partition of a line whose bytes do not tell it: `route` of the parsed line, or 0 for a line
 * that does not parse (partition 0 reports it).
 * @param bytes - the buffer holding the line
 * @param start - where the line starts
 * @param end - where it ends, before the line break
 * @param route - the partition of a parsed record
 * @returns a partition
 */
export function parsedLineRoute(
  bytes: Buffer,
  start: number,
  end: number,
  route: (record: unknown) => number,
): number {
  try {
    return route(JSON.parse(bytes.toString('utf8', start, end)));
  } catch {
    return 0;
  }
}

/**
 * The hash (as `partitionOfId` makes it) of the string value that follows a `"customer_id"` key
 * ending at `from`, read from its bytes, or `undefined` when it is not a plain ASCII string (an
 * escape in it, or a byte past ASCII, and its bytes are not its characters).
 */
function valueHash(bytes: Uint8Array, from: number, end: number): number | undefined {
  const colon = skipSpace(bytes, from, end);
  if (bytes[colon] !== COLON) return undefined;
  const open = skipSpace(bytes, colon + 1, end);
  if (open >= end || bytes[open] !== QUOTE) return undefined;
  let first = open + 1;
  let last = first;
  while (last < end && bytes[last] !== QUOTE) {
    const b = bytes[last] as number;
    if (b >= 0x80 || b === BACKSLASH) return undefined;
    last++;
  }
  if (last >= end) return undefined;
  // The engine trims ids; a JSON string holds no raw control character, so only spaces.
  while (first < last && bytes[first] === SPACE) first++;
  while (last > first && bytes[last - 1] === SPACE) last--;
  let h = 0;
  for (let k = first; k < last; k++) h = (Math.imul(h, 31) + (bytes[k] as number)) | 0;
  return h;
}

/** Routes the NDJSON lines of one buffer, taken in order. */
export interface LineRoute {
  /**
   * The partition of the line from `start` to `end` (exclusive, before the line break), called
   * for lines in order.
   * @returns a partition from 0 to `partitions - 1`
   */
  route(start: number, end: number): number;
}

/**
 * Routes the NDJSON lines of one buffer, taken in order, to the partition of their customer: from
 * the bytes when they tell it for sure, else from the parsed line (a line that does not parse goes
 * to partition 0, which reports it). Sure means: `KeyFinder` finds `"customer_id"` (the line has
 * only harmless escapes and the key once), followed by a colon, so it is a key; and its value is
 * a string of ASCII characters with no escape, so its bytes are its characters. The key may be nested, but then the top
 * level has none and the transaction is invalid, whichever partition decides it.
 */
export class LineRouter implements LineRoute {
  private readonly keys: KeyFinder;

  /**
   * @param bytes - the buffer holding the lines
   * @param partitions - how many partitions
   */
  constructor(
    private readonly bytes: Buffer,
    private readonly partitions: number,
  ) {
    this.keys = new KeyFinder(bytes, KEY);
  }

  /**
   * The partition of the line from `start` to `end` (exclusive, before the line break), called
   * for lines in order.
   * @returns a partition from 0 to `partitions - 1`
   */
  route(start: number, end: number): number {
    const at = this.keys.find(start, end);
    const h = typeof at === 'number' ? valueHash(this.bytes, at + KEY.length, end) : undefined;
    if (h !== undefined) return partitionOfHash(h, this.partitions);
    return parsedLineRoute(this.bytes, start, end, (r) => partitionOf(r, this.partitions));
  }
}
