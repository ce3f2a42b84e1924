// NDJSON lines of `cashback replay --workers N` routed when an offer has a budget: a line at a
// merchant key with a budgeted offer goes to that key's partition, any other to its customer's
// (docs/replay.md, Workers). The merchant name is read from the line's bytes when that is sure to
// give what parsing gives, as the customer id is (routeByCustomer.ts).
import { merchantKey } from '../../model/normalise.js';
import { KeyFinder } from './KeyFinder.js';
import { type LineRoute, parsedLineRoute, skipSpace } from './routeByCustomer.js';

const NAME = Buffer.from('"name"');
const QUOTE = 0x22;
const COLON = 0x3a;
const BACKSLASH = 0x5c;

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
 * merchant key is read from the bytes when `KeyFinder` tells where `"name"` is or that the line
 * has none (only harmless escapes, so every quote opens or closes a string, and the key at most
 * once) and the name holds no escape:
 * then that is the one `name` key of the line, and when it is not the top-level merchant's, that
 * merchant has no name and the transaction is invalid, whichever partition decides it. Otherwise
 * the line is parsed (one that does not parse goes to partition 0, which reports it).
 */
export class BudgetLineRouter implements LineRoute {
  private readonly names: KeyFinder;

  /**
   * @param bytes - the buffer holding the lines
   * @param byCustomer - the routes by customer over the same buffer
   * @param lookups - the budgeted merchants' partitions, and the route of a parsed line
   */
  constructor(
    private readonly bytes: Buffer,
    private readonly byCustomer: LineRoute,
    private readonly lookups: BudgetLookups,
  ) {
    this.names = new KeyFinder(bytes, NAME);
  }

  route(start: number, end: number): number {
    const key = this.keyOf(start, end);
    if (key === undefined) {
      return parsedLineRoute(this.bytes, start, end, (record) => this.lookups.record(record));
    }
    const p = key === null ? undefined : this.lookups.merchant(key);
    return p ?? this.byCustomer.route(start, end);
  }

  /** The merchant key of a line read from its bytes; `undefined` when they do not tell it. */
  private keyOf(start: number, end: number): ReadKey {
    const at = this.names.find(start, end);
    if (typeof at !== 'number') return at;
    const bytes = this.bytes;
    const colon = skipSpace(bytes, at + NAME.length, end);
    // Not followed by a colon: a string value, so the line has no `name` key.
    if (bytes[colon] !== COLON) return null;
    const open = skipSpace(bytes, colon + 1, end);
    // A name that is not a string: the transaction is invalid.
    if (open >= end || bytes[open] !== QUOTE) return null;
    const close = bytes.indexOf(QUOTE, open + 1);
    if (close === -1 || close >= end) return undefined;
    // An escape in the name (a tab): its bytes are not its characters, so the line is parsed.
    for (let i = open + 1; i < close; i++) if (bytes[i] === BACKSLASH) return undefined;
    return merchantKey(bytes.toString('utf8', open + 1, close));
  }
}
