import type { Outcome } from '../outcome.js';
import type { ReturnOutcome } from '../returns/ReturnOutcome.js';
import type { ReplaySummary } from '../SummaryBuilder.js';
import type { ReplayResult } from './ReplayResult.js';

/** What a replay session holds in memory, in items. @public */
export interface ReplayRetained {
  /** Customers registered. */
  readonly customers: number;
  /** Transaction ids stored (history and pushed), kept to find duplicates. */
  readonly transactionIds: number;
  /** Purchases kept for lookbacks and `history` facts. */
  readonly purchases: number;
  /** Stored transactions kept for returns (0 in a session that takes no returns). */
  readonly returnable: number;
}

/** A replay fed in chunks: memory stays flat in the number of transactions. @public */
export interface ReplaySession {
  /** Rejections of the customers and history the session started from. */
  readonly rejected: ReplayResult['rejected'];
  /**
   * Decides the next consecutive chunk of transactions. Item keys `#<index>` count from the
   * start of the stream, so chunking changes nothing. Throws a `TypeError` when `transactions`
   * is not an array, and {@link LateTransactionError} as `maxLatenessDays` says.
   */
  push(transactions: readonly unknown[]): readonly Outcome[];
  /**
   * Decides the next consecutive chunk of returns against the transactions pushed so far, by
   * the engine's decision (docs/concepts.md, Returns). Item keys `#<index>` count from the first
   * return pushed. Throws a `TypeError` when `returns` is not an array, or when the session was
   * not opened with `returns: true`.
   */
  pushReturns(returns: readonly unknown[]): readonly ReturnOutcome[];
  /** Totals so far. */
  summary(): ReplaySummary;
  /** What the session holds in memory now. */
  retained(): ReplayRetained;
}
