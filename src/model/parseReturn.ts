import { isRecord } from '../rules/_internals/isRecord.js';
import { isBefore, type WallClock } from './dateTime.js';
import type { FieldIssue } from './errors.js';
import type { ExactAmount } from './money.js';
import { type ParseResult, readAmount, readDateTime, readId } from './parseTransaction.js';

/**
 * A return after parsing (docs/concepts.md, Returns): ids trimmed, date as wall-clock time in the
 * engine's zone, amount exact when given.
 * @public
 */
export interface ParsedReturn {
  /** Return id, trimmed: unique per partner among returns. */
  readonly returnId: string;
  /** The returned transaction's id, trimmed. */
  readonly transactionId: string;
  /** Date-time of the return in the engine's zone. */
  readonly when: WallClock;
  /** Amount returned; `undefined`: all of the transaction that is not yet returned. */
  readonly amount: ExactAmount | undefined;
  /**
   * When the return arrived (docs/concepts.md, Late returns): `reported_at` as given, else its
   * date. The engine decides with its own clock instead.
   */
  readonly reportedAt: WallClock;
}

/**
 * Parses a return: `return_id` and `transaction_id` read as ids, `date` and `reported_at`
 * (optional, not before `date`) as a transaction's date-time, `amount` (optional) as a
 * transaction's amount, by the same field readers as `parseTransaction`.
 * @param input - the JSON item
 * @param index - its position in the array, for the `#<index>` key of an item without a usable
 *   `return_id`
 * @param timeZone - the engine's IANA time zone
 * @returns the parsed return, or every problem found with its field path
 * @public
 */
export function parseReturn(
  input: unknown,
  index: number,
  timeZone: string,
): ParseResult<ParsedReturn> {
  if (!isRecord(input)) {
    return { ok: false, key: `#${index}`, issues: [{ path: '', message: 'must be an object' }] };
  }
  const issues: FieldIssue[] = [];
  const returnId = readId(input.return_id, 'return_id', issues);
  const keyOk = issues.length === 0;
  const transactionId = readId(input.transaction_id, 'transaction_id', issues);
  const when = readDateTime(input.date, 'date', timeZone, issues);
  const amount = input.amount === undefined ? undefined : readAmount(input.amount, issues);
  const reportedAt =
    input.reported_at === undefined
      ? when
      : readDateTime(input.reported_at, 'reported_at', timeZone, issues);
  if (
    when !== undefined &&
    reportedAt !== undefined &&
    isBefore(reportedAt.seconds, reportedAt.nanos, when)
  ) {
    issues.push({ path: 'reported_at', message: `must not be before date (${when.text})` });
  }
  if (issues.length > 0 || when === undefined || reportedAt === undefined) {
    return { ok: false, key: keyOk ? returnId : `#${index}`, issues };
  }
  return { ok: true, value: { returnId, transactionId, when, amount, reportedAt } };
}
