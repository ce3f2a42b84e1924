import { assertKnownKeys } from '../../model/knownKeys.js';
import { resolveCoreOptions } from '../../model/options.js';
import { wholeNumber } from '../../model/wholeNumber.js';
import type { Outcome, Payment, TransactionError } from '../outcome.js';
import {
  type Adjustment,
  type Clawback,
  type ReturnError,
  type ReturnOutcome,
  sortReturnOutcomes,
} from '../returns/ReturnOutcome.js';
import type { ReplaySummary } from '../SummaryBuilder.js';
import { createReplay } from './createReplay.js';
import { type ReplaySessionOptions, SESSION_OPTION_KEYS } from './options.js';
import { pushMerged } from './pushMerged.js';
import type { ReplayData } from './ReplayData.js';
import type { ReplayResult } from './ReplayResult.js';
import type { ReplayRetained } from './ReplaySession.js';
import { ReturnCursor } from './ReturnCursor.js';

/** Options of `replayStream`: the session options plus the chunk size. @public */
export interface ReplayStreamOptions extends ReplaySessionOptions {
  /**
   * How many transactions are decided together. Chunking changes no outcome; a larger chunk
   * costs more memory and a later first outcome.
   * @defaultValue `1000`
   */
  readonly chunkSize?: number;
}

/** Payments and errors of a whole stream, collected. @public */
export interface CollectedReplay {
  /** Payments, in transaction order. */
  readonly payments: readonly Payment[];
  /** One error per transaction that earns nothing, in transaction order. */
  readonly errors: readonly TransactionError[];
  /** Payments adjusted by returns, in the order decided (empty without returns). */
  readonly adjustments: readonly Adjustment[];
  /** Late returns' clawbacks, in the order decided (empty without returns). */
  readonly clawbacks: readonly Clawback[];
  /** One error per return that adjusts nothing, in the order decided (empty without returns). */
  readonly returnErrors: readonly ReturnError[];
  /** Totals of the whole stream. */
  readonly summary: ReplaySummary;
}

/**
 * A replay over an (async) iterable of transactions: iterate it once for the outcomes, one per
 * transaction, in input order.
 * @public
 */
export interface ReplayStream extends AsyncIterable<Outcome> {
  /** Rejections of the customers and history the replay started from. */
  readonly rejected: ReplayResult['rejected'];
  /** Totals of the outcomes produced so far. */
  summary(): ReplaySummary;
  /** What the replay holds in memory now. */
  retained(): ReplayRetained;
  /**
   * The same outcomes as arrays, one per chunk decided: the stream with no promise per outcome.
   * Iterate either this or the stream itself, once.
   */
  chunks(): AsyncIterable<readonly Outcome[]>;
  /** Iterates the whole stream and returns its payments, errors, adjustments and summary. */
  collect(): Promise<CollectedReplay>;
  /**
   * The outcomes of the returns (`data.returns`) decided since the last call, in order, and
   * forgets them: returns are decided as the transactions reach them (docs/replay.md, Returns),
   * the ones after the last transaction when the iteration ends. Always empty without returns.
   */
  takeReturnOutcomes(): readonly ReturnOutcome[];
}

const STREAM_OPTION_KEYS: readonly string[] = [...SESSION_OPTION_KEYS, 'chunkSize'];

/**
 * Replays transactions as they arrive from an iterable or async iterable (lines of a file, rows of
 * a query), chunk by chunk over `createReplay`: memory grows with customers, merchants and the
 * duplicate-id set, not with the number of transactions. Transactions are expected in date order
 * within `maxLatenessDays` (docs/replay.md, Date order and `maxLatenessDays`); a later one ends
 * the iteration with a `LateTransactionError` naming it.
 * @param data - offers, customers, optional history and optional returns, merged with the
 *   transactions by date-time (its `transactions` are not read)
 * @param transactions - the transactions to decide, in order
 * @param options - the `createReplay` options, plus `chunkSize`
 * @returns the stream of outcomes, its summary and rejections
 * @throws the errors of `createReplay`; TypeError when `transactions` is not iterable or for an
 *   unknown option; RangeError when `chunkSize` is not a whole number of at least 1
 * @example
 * ```ts
 * const stream = replayStream({ offers, customers }, readLines());
 * for await (const outcome of stream) if (outcome.ok) console.log(outcome.payment);
 * console.log(stream.summary().totalCashback);
 * ```
 * @public
 */
export function replayStream(
  data: ReplayData,
  transactions: AsyncIterable<unknown> | Iterable<unknown>,
  options: ReplayStreamOptions = {},
): ReplayStream {
  assertKnownKeys(options, STREAM_OPTION_KEYS, 'replayStream options');
  const { chunkSize: rawChunk, ...sessionOptions } = options;
  const chunkSize = wholeNumber(rawChunk ?? 1000, 'chunkSize', { min: 1 });
  const source = transactions as Partial<AsyncIterable<unknown> & Iterable<unknown>> | null;
  if (
    typeof source?.[Symbol.asyncIterator] !== 'function' &&
    typeof source?.[Symbol.iterator] !== 'function'
  ) {
    throw new TypeError('transactions must be an iterable or an async iterable');
  }
  async function* batches(): AsyncGenerator<readonly unknown[]> {
    let chunk: unknown[] = [];
    for await (const item of transactions) {
      chunk.push(item);
      if (chunk.length >= chunkSize) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  }
  return replayChunks(data, batches(), sessionOptions);
}

/**
 * `replayStream` over a source that already comes in chunks (the file readers'), decided as
 * they come.
 * @param data - offers, customers and optional history
 * @param chunks - the transactions, in order, in chunks
 * @param options - the `createReplay` options
 * @returns the stream
 */
export function replayChunks(
  data: ReplayData,
  chunks: AsyncIterable<readonly unknown[]>,
  options: ReplaySessionOptions,
): ReplayStream {
  const { returns } = data;
  const session = createReplay(data, { ...options, returns: returns !== undefined });
  const timeZone = resolveCoreOptions(options).timeZone;
  const cursor = new ReturnCursor(returns ?? [], timeZone);
  let decided: ReturnOutcome[] = [];
  let started = false;

  async function* outcomeChunks(): AsyncGenerator<readonly Outcome[]> {
    if (started) throw new Error('a replay stream can be iterated only once');
    started = true;
    for await (const chunk of chunks) {
      if (chunk.length === 0) continue;
      const merged = pushMerged(session, chunk, cursor, timeZone);
      for (const o of merged.returns) decided.push(o);
      yield merged.outcomes;
    }
    if (!cursor.done) for (const o of session.pushReturns(cursor.take(null))) decided.push(o);
  }
  const takeReturnOutcomes = (): readonly ReturnOutcome[] => {
    const taken = decided;
    decided = [];
    return taken;
  };

  const stream: ReplayStream = {
    rejected: session.rejected,
    summary: () => session.summary(),
    retained: () => session.retained(),
    takeReturnOutcomes,
    ...outcomeReaders(outcomeChunks, () => session.summary(), takeReturnOutcomes),
  };
  return stream;
}

/**
 * The three ways to read a replay stream's outcomes, all over its chunks: as chunks, one by one,
 * or collected into payments and errors.
 * @param outcomeChunks - yields the outcomes chunk by chunk (each call starts the one iteration)
 * @param summary - the totals of the outcomes produced so far
 * @param takeReturnOutcomes - the return outcomes decided since the last call
 * @returns the `chunks`, async iterator and `collect` of a `ReplayStream`
 */
export function outcomeReaders(
  outcomeChunks: () => AsyncIterable<readonly Outcome[]>,
  summary: () => ReplaySummary,
  takeReturnOutcomes: () => readonly ReturnOutcome[] = () => [],
): Pick<ReplayStream, 'chunks' | 'collect' | typeof Symbol.asyncIterator> {
  return {
    chunks: () => outcomeChunks(),
    async *[Symbol.asyncIterator]() {
      for await (const chunk of outcomeChunks()) yield* chunk;
    },
    async collect() {
      const payments: Payment[] = [];
      const errors: TransactionError[] = [];
      for await (const chunk of outcomeChunks()) {
        for (const o of chunk) {
          if (o.ok) payments.push(o.payment);
          else errors.push(o.error);
        }
      }
      const sorted = sortReturnOutcomes(takeReturnOutcomes());
      const { adjustments, clawbacks, errors: returnErrors } = sorted;
      return { payments, errors, adjustments, clawbacks, returnErrors, summary: summary() };
    },
  };
}
