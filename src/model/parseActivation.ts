import { isRecord } from '../rules/_internals/isRecord.js';
import type { WallClock } from './dateTime.js';
import type { FieldIssue } from './errors.js';
import { itemKey } from './itemKey.js';
import { zodIssues, zodMessage } from './parseCustomer.js';
import { type ParseResult, readDateTime, readId } from './parseTransaction.js';
import { OFFER_ID_TEXT, OfferIdSchema } from './schemas.js';

/**
 * An activation after parsing (docs/concepts.md, Activation): the customer id trimmed, the date
 * as wall-clock time in the engine's zone.
 * @public
 */
export interface ParsedActivation {
  /** Customer id, trimmed. */
  readonly customerId: string;
  /** The offer opted in to. */
  readonly offerId: number;
  /** From when it counts; `undefined` when the item had no `date` (the engine's clock fills it). */
  readonly when: WallClock | undefined;
}

/**
 * The offer id as given, a string of decimal digits read as the number it writes: CSV and
 * Parquet files give every cell as text (docs/decisions.md, Funding controls).
 * @param raw - `offer_id` as sent
 * @returns the number, or `raw` itself when it is not such a string
 */
function offerIdOf(raw: unknown): unknown {
  return typeof raw === 'string' && OFFER_ID_TEXT.test(raw) ? Number(raw) : raw;
}

/**
 * The key of an activation's outcome: `<customer_id>/<offer_id>` when both are usable, else
 * `#<index>` (docs/decisions.md, Funding controls).
 * @param input - the item as sent
 * @param index - its position in its array
 * @returns the key
 */
export function activationKey(input: unknown, index: number): string {
  if (!isRecord(input)) return `#${index}`;
  const customer = itemKey(input.customer_id, index);
  const offer = OfferIdSchema.safeParse(offerIdOf(input.offer_id));
  return customer.startsWith('#') || !offer.success ? `#${index}` : `${customer}/${offer.data}`;
}

/**
 * Parses an activation `{customer_id, offer_id, date?}`: the fields are read as a transaction's
 * `customer_id` and `date`, and an offer's `offer_id` (also as a string of decimal digits).
 * @param input - the JSON item
 * @param index - its position, for the `#<index>` key of an item without a usable id
 * @param timeZone - the engine's IANA time zone
 * @param dateRequired - whether `date` must be given (a replay has no clock to fill it)
 * @returns the parsed activation, or every problem found with its field path
 * @public
 */
export function parseActivation(
  input: unknown,
  index: number,
  timeZone: string,
  dateRequired = false,
): ParseResult<ParsedActivation> {
  if (!isRecord(input)) {
    return { ok: false, key: `#${index}`, issues: [{ path: '', message: 'must be an object' }] };
  }
  const issues: FieldIssue[] = [];
  const customerId = readId(input.customer_id, 'customer_id', issues);
  const offer = OfferIdSchema.safeParse(offerIdOf(input.offer_id), { error: zodMessage });
  if (!offer.success) {
    for (const i of zodIssues(offer.error.issues)) issues.push({ ...i, path: 'offer_id' });
  }
  const when =
    input.date === undefined && !dateRequired
      ? undefined
      : readDateTime(input.date, 'date', timeZone, issues);
  if (issues.length > 0 || !offer.success) {
    return { ok: false, key: activationKey(input, index), issues };
  }
  return { ok: true, value: { customerId, offerId: offer.data, when } };
}
