import { assertKnownKeys } from '../../model/knownKeys.js';
import { describeValue } from '../../rules/_internals/describe.js';
import type { Payment, TransactionError } from '../outcome.js';
import { type ReplayOptions, SESSION_OPTION_KEYS } from './options.js';
import { replayCore } from './ReplayCore.js';
import { checkData, type ReplayData } from './ReplayData.js';
import type { ReplayResult } from './ReplayResult.js';

const REPLAY_OPTION_KEYS: readonly string[] = [...SESSION_OPTION_KEYS, 'clock', 'ids'];

/** Throws a TypeError naming the option unless `value` is a function or left out. */
function checkFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`${name} must be a function, got ${describeValue(value)}`);
  }
}

/**
 * Replays a whole data set: customers first (one request), then history, then transactions in
 * array order. Synchronous and deterministic: the same input gives the same output.
 * @param data - offers, customers, optional history, and the transactions to decide
 * @param options - core options, plus `clock` and `ids`
 * @returns payments, errors, rejections and a summary
 * @throws OfferValidationError when an offer is invalid; TypeError when `data` is not an object,
 *   has a key other than `offers`, `customers`, `history` and `transactions`, or one of them has
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
  const session = replayCore(data, sessionOptions, Number.POSITIVE_INFINITY);
  const payments: Payment[] = [];
  const errors: TransactionError[] = [];
  for (const o of session.push(data.transactions)) {
    if (o.ok) payments.push(o.payment);
    else errors.push(o.error);
  }
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
    rejected: session.rejected,
    summary: session.summary(),
  };
  return generatedAt === undefined
    ? result
    : { ...result, generated_at: generatedAt.toISOString() };
}
