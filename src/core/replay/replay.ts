import { assertKnownKeys } from '../../model/knownKeys.js';
import { describeValue } from '../../rules/_internals/describe.js';
import type { Outcome, Payment, TransactionError } from '../outcome.js';
import { type ReturnOutcome, sortReturnOutcomes } from '../returns/ReturnOutcome.js';
import { type ReplayOptions, SESSION_OPTION_KEYS } from './options.js';
import { pushMerged } from './pushMerged.js';
import { replayCore } from './ReplayCore.js';
import { checkData, type ReplayData } from './ReplayData.js';
import type { ReplayResult } from './ReplayResult.js';
import { ReturnCursor } from './ReturnCursor.js';

const REPLAY_OPTION_KEYS: readonly string[] = [...SESSION_OPTION_KEYS, 'clock', 'ids'];

/** Throws a TypeError naming the option unless `value` is a function or left out. */
function checkFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`${name} must be a function, got ${describeValue(value)}`);
  }
}

/**
 * Replays a whole data set: customers first (one request), then history, then transactions in
 * array order, merged with `returns` when given: the next return goes first when its date-time is
 * strictly before the next transaction's (one that cannot be read goes before every other). Synchronous and deterministic: the same input gives the same output.
 * @param data - offers, customers, optional history, and the transactions to decide
 * @param options - core options, plus `clock` and `ids`
 * @returns payments (as decided), errors, adjustments and return errors, rejections and a summary
 * @throws OfferValidationError when an offer is invalid; TypeError when `data` is not an object,
 *   has a key other than `offers`, `customers`, `history`, `transactions` and `returns`, or one of them has
 *   the wrong shape, for an unknown option, and when `clock` or `ids` is not a function;
 *   RangeError for a bad option value
 * @example
 * ```ts
 * const r = replay({ offers, customers, history, transactions });
 * console.log(r.summary.totalCashback, r.errors.length);
 * ```
 * @public
 */
export function replay(
  data: ReplayData & { readonly transactions: readonly unknown[] },
  options: ReplayOptions = {},
): ReplayResult {
  checkData(data, true);
  assertKnownKeys(options, REPLAY_OPTION_KEYS, 'replay options');
  const { clock, ids, ...sessionOptions } = options;
  checkFunction(clock, 'replay options.clock');
  checkFunction(ids, 'replay options.ids');
  const withReturns = data.returns !== undefined;
  const session = replayCore(data, sessionOptions, Number.POSITIVE_INFINITY, withReturns);
  let outcomes: readonly Outcome[];
  let returnOutcomes: readonly ReturnOutcome[] = [];
  if (withReturns) {
    const timeZone = session.timeZone;
    const cursor = new ReturnCursor(data.returns ?? [], timeZone);
    const merged = pushMerged(session, data.transactions, cursor, timeZone);
    returnOutcomes = [...merged.returns, ...session.pushReturns(cursor.take(null))];
    outcomes = merged.outcomes;
  } else outcomes = session.push(data.transactions);
  const payments: Payment[] = [];
  const errors: TransactionError[] = [];
  for (const o of outcomes) {
    if (o.ok) payments.push(o.payment);
    else errors.push(o.error);
  }
  const { adjustments, clawbacks, errors: returnErrors } = sortReturnOutcomes(returnOutcomes);
  const eventId = ids === undefined ? 'replay' : ids();
  if (typeof eventId !== 'string' || eventId === '') {
    throw new TypeError(
      `replay options.ids must return a non-empty string, got ${describeValue(eventId)}`,
    );
  }
  const generatedAt = clock?.();
  if (
    generatedAt !== undefined &&
    !(generatedAt instanceof Date && !Number.isNaN(generatedAt.getTime()))
  ) {
    throw new TypeError(
      `replay options.clock must return a valid Date, got ${describeValue(generatedAt)}`,
    );
  }
  const result: ReplayResult = {
    event_id: eventId,
    payments,
    errors,
    adjustments,
    clawbacks,
    returnErrors,
    rejected: session.rejected,
    summary: session.summary(),
  };
  return generatedAt === undefined
    ? result
    : { ...result, generated_at: generatedAt.toISOString() };
}
