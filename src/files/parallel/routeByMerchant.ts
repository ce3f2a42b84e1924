// NDJSON lines of `cashback replay --workers N` routed when an offer has a budget: a line at a
// merchant key with a budgeted offer goes to that key's partition, any other to its customer's
// (docs/replay.md, Workers). The merchant name is read from the line's bytes when that is sure to
// give what parsing gives, as the customer id is (routeByCustomer.ts).
import { merchantKey } from '../../model/normalise.js';
import { type LineRoute, skipSpace } from './routeByCustomer.js';

const NAME = Buffer.from('"name"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** What a budget router asks of the routes. */
export interface BudgetLookups {
  /** The partition of a merchant key with a budgeted offer, else `undefined`. */
  merchant(key: string): number | undefined;
  /** The partition of a parsed line. */
  record(record: unknown): number;
}

/** A line's merchant key as its bytes tell it: `null` when it has no `name` key at all. */
type ReadKey = string | null | undefined;

/**
 * Routes the NDJSON lines of one buffer, taken in order, when some offers have a budget. The
 * merchant key is read from the bytes when the line has no backslash (so no escape, and every
 * quote opens or closes a string) and `"name"` occurs at most once in it: then that is the one
 * `name` key of the line, and when it is not the top-level merchant's, that merchant has no name
 * and the transaction is invalid, whichever partition decides it. Otherwise the line is parsed
 * (one that does not parse goes to partition 0, which reports it).
 */
export class BudgetLineRouter implements LineRoute {
  /** The next `"name"` and backslash at or after the last line's start; -1 before any. */
  private name = -1;
  private backslash = -1;

  /**
   * @param bytes - the buffer holding the lines
   * @param byCustomer - the routes by customer over the same buffer
   * @param lookups - the budgeted merchants' partitions, and the route of a parsed line
   */
  constructor(
    private readonly bytes: Buffer,
    private readonly byCustomer: LineRoute,
    private readonly lookups: BudgetLookups,
  ) {}

  /** The next `needle` from `start`, kept from the last search while it is not behind. */
  private next(found: number, start: number, needle: Buffer | number): number {
    if (found >= start) return found;
    const at = this.bytes.indexOf(needle, start);
    return at === -1 ? Number.POSITIVE_INFINITY : at;
  }

  route(start: number, end: number): number {
    const key = this.keyOf(start, end);
    if (key === undefined) {
      try {
        return this.lookups.record(JSON.parse(this.bytes.toString('utf8', start, end)));
      } catch {
        return 0;
      }
    }
    const p = key === null ? undefined : this.lookups.merchant(key);
    return p ?? this.byCustomer.route(start, end);
  }

  /** The merchant key of a line read from its bytes; `undefined` when they do not tell it. */
  private keyOf(start: number, end: number): ReadKey {
    this.backslash = this.next(this.backslash, start, BACKSLASH);
    this.name = this.next(this.name, start, NAME);
    const at = this.name;
    if (this.backslash < end) return undefined;
    if (at >= end) return null;
    this.name = this.next(-1, at + NAME.length, NAME);
    if (this.name < end) return undefined;
    const bytes = this.bytes;
    const colon = skipSpace(bytes, at + NAME.length, end);
    // Not followed by a colon: a string value, so the line has no `name` key.
    if (bytes[colon] !== COLON) return null;
    const open = skipSpace(bytes, colon + 1, end);
    // A name that is not a string: the transaction is invalid.
    if (open >= end || bytes[open] !== QUOTE) return null;
    const close = bytes.indexOf(QUOTE, open + 1);
    if (close === -1 || close >= end) return undefined;
    return merchantKey(bytes.toString('utf8', open + 1, close));
  }
}
