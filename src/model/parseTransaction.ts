import { isRecord } from '../rules/_internals/isRecord.js';
import type { WallClock } from './dateTime.js';
import { parseDateTime } from './dateTime.js';
import type { FieldIssue } from './errors.js';
import { MAX_ID_LENGTH } from './itemKey.js';
import type { ExactAmount } from './money.js';
import { AMOUNT_TOO_LARGE, overMaxAmount, parseAmount } from './money.js';
import { merchantKey } from './normalise.js';
import type { Channel, Location } from './schemas.js';
import { textIssue } from './storableText.js';

/**
 * A transaction after parsing: ids trimmed, date as wall-clock time in the engine's zone, amount
 * exact, merchant name reduced to its match key. Parsing happens once; matching reads only this.
 * @public
 */
export interface ParsedTransaction {
  /** Transaction id, trimmed. */
  readonly transactionId: string;
  /** Customer id, trimmed. */
  readonly customerId: string;
  /** Description (empty when a history item has none). */
  readonly description: string;
  /** Merchant as sent (`id` and `category_code` empty when a history item has none). */
  readonly merchant: { readonly id: string; readonly name: string; readonly category_code: string };
  /** Normalised merchant name: the key offers are indexed by. */
  readonly merchantKey: string;
  /** Location, when sent (always for submitted transactions). */
  readonly location: Location | undefined;
  /** Date-time in the engine's zone. */
  readonly when: WallClock;
  /** Amount, exact. */
  readonly amount: ExactAmount;
  /** Where it was paid, when sent (docs/concepts.md, Scopes: channels). */
  readonly channel: Channel | undefined;
}

/** Result of parsing one item: the value, or the problems with it and the key that names it. @public */
export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly key: string; readonly issues: readonly FieldIssue[] };

/**
 * Reads an identifier field: a string, trimmed, 1 to {@link MAX_ID_LENGTH} characters
 * (docs/concepts.md, Input rules). A problem is pushed to `issues`.
 * @param v - the value as sent
 * @param path - the field's path, for the issue
 * @param issues - where a problem goes
 * @returns the trimmed id (empty or too long when an issue was pushed)
 */
export function readId(v: unknown, path: string, issues: FieldIssue[]): string {
  if (typeof v !== 'string') {
    issues.push({ path, message: v === undefined ? 'is required' : 'must be a string' });
    return '';
  }
  const id = v.trim();
  if (id.length === 0) issues.push({ path, message: 'must not be empty' });
  else if (id.length > MAX_ID_LENGTH) {
    issues.push({ path, message: `must be at most ${MAX_ID_LENGTH} characters` });
  } else {
    const issue = textIssue(id);
    if (issue !== undefined) issues.push({ path, message: issue });
  }
  return id;
}

/**
 * Reads a date-time field as a transaction's `date` (docs/concepts.md, Time zones).
 * @param v - the value as sent
 * @param path - the field's name in issues
 * @param timeZone - the engine's IANA time zone
 * @param issues - where a problem is added
 * @returns the wall-clock time, or `undefined` when an issue was added
 */
export function readDateTime(
  v: unknown,
  path: string,
  timeZone: string,
  issues: FieldIssue[],
): WallClock | undefined {
  if (typeof v !== 'string') {
    issues.push({ path, message: v === undefined ? 'is required' : 'must be a string' });
    return undefined;
  }
  const w = parseDateTime(v, timeZone);
  if (typeof w !== 'string') return w;
  issues.push({ path, message: w });
  return undefined;
}

function readString(v: unknown, path: string, issues: FieldIssue[], optional: boolean): string {
  if (typeof v === 'string') {
    const issue = textIssue(v);
    if (issue !== undefined) issues.push({ path, message: issue });
    return v;
  }
  if (v === undefined && optional) return '';
  issues.push({ path, message: v === undefined ? 'is required' : 'must be a string' });
  return '';
}

function readLocation(v: unknown, issues: FieldIssue[], optional: boolean): Location | undefined {
  if (v === undefined && optional) return undefined;
  if (!isRecord(v)) {
    issues.push({
      path: 'location',
      message: v === undefined ? 'is required' : 'must be an object',
    });
    return undefined;
  }
  const country = readString(v.country, 'location.country', issues, false);
  const city = readString(v.city, 'location.city', issues, false);
  return { country, city };
}

/**
 * Reads a transaction's `amount` (present): a number or plain decimal string above 0 and at most
 * one trillion (docs/concepts.md, Input rules). A problem is pushed to `issues` under the path
 * `amount`.
 * @param v - the value as sent (not `undefined`)
 * @param issues - where a problem goes
 * @returns the exact amount, or `undefined` when an issue was pushed
 */
export function readAmount(v: unknown, issues: FieldIssue[]): ExactAmount | undefined {
  const a = parseAmount(v);
  if (typeof a === 'string') issues.push({ path: 'amount', message: a });
  else if (overMaxAmount(a)) issues.push({ path: 'amount', message: AMOUNT_TOO_LARGE });
  else return a;
  return undefined;
}

/** Why a `channel` is not one (the words the schema's enumeration gives). */
const CHANNEL_ISSUE = "must be one of 'online', 'in_store'";

/** Reads an optional `channel`: absent, `online` or `in_store`; anything else is an issue. */
function readChannel(v: unknown, issues: FieldIssue[]): Channel | undefined {
  if (v === undefined || v === 'online' || v === 'in_store') return v;
  issues.push({ path: 'channel', message: CHANNEL_ISSUE });
  return undefined;
}

const SCRATCH: FieldIssue[] = [];

/**
 * Parses a submitted transaction (all seven fields required) or, with `history: true`, a history
 * transaction (`description`, `merchant.id`, `merchant.category_code` and `location` optional).
 *
 * Hand-written rather than `TransactionSchema.safeParse`: it runs once per transaction of a
 * replay, and zod cost about half as much as `JSON.parse` of the line itself (docs/benchmarks.md,
 * Figures behind choices in the code). A property test (test/model/parseTransaction.test.ts)
 * proves it accepts exactly what the zod schemas accept, with one exception the schemas cannot
 * know of: a date with an offset that lands outside the years 0000–9999 in `timeZone` is
 * refused.
 *
 * @param input - the JSON item
 * @param index - its position in the array, for the `#<index>` key of an item without an id
 * @param timeZone - the engine's IANA time zone
 * @param history - parse as a history item
 * @returns the parsed transaction, or every problem found with its field path
 * @public
 */
export function parseTransaction(
  input: unknown,
  index: number,
  timeZone: string,
  history = false,
): ParseResult<ParsedTransaction> {
  if (!isRecord(input)) {
    return { ok: false, key: `#${index}`, issues: [{ path: '', message: 'must be an object' }] };
  }
  // One scratch list, copied only when the item is invalid: parsing is synchronous and never
  // re-entered, and a fresh array per valid transaction was measurable garbage.
  const issues = SCRATCH;
  issues.length = 0;
  const transactionId = readId(input.transaction_id, 'transaction_id', issues);
  const keyOk = issues.length === 0;
  const customerId = readId(input.customer_id, 'customer_id', issues);
  const description = readString(input.description, 'description', issues, history);
  const when = readDateTime(input.date, 'date', timeZone, issues);
  let amount: ExactAmount | undefined;
  if (input.amount === undefined) issues.push({ path: 'amount', message: 'is required' });
  else amount = readAmount(input.amount, issues);
  let merchant: ParsedTransaction['merchant'] | undefined;
  let key = '';
  const m = input.merchant;
  if (!isRecord(m)) {
    issues.push({
      path: 'merchant',
      message: m === undefined ? 'is required' : 'must be an object',
    });
  } else {
    const id = readString(m.id, 'merchant.id', issues, history);
    const name = readString(m.name, 'merchant.name', issues, false);
    const category = readString(m.category_code, 'merchant.category_code', issues, history);
    key = merchantKey(name);
    if (typeof m.name === 'string' && name.trim().length === 0) {
      issues.push({ path: 'merchant.name', message: 'must not be empty' });
    }
    merchant = { id, name, category_code: category };
  }
  const location = readLocation(input.location, issues, history);
  const channel = readChannel(input.channel, issues);
  if (issues.length > 0 || when === undefined || amount === undefined || merchant === undefined) {
    return { ok: false, key: keyOk ? transactionId : `#${index}`, issues: issues.slice() };
  }
  return {
    ok: true,
    value: {
      transactionId,
      customerId,
      description,
      merchant,
      merchantKey: key,
      location,
      when,
      amount,
      channel,
    },
  };
}
