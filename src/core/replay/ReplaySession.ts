import type { Outcome } from '../outcome.js';
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
  /** Totals so far. */
  summary(): ReplaySummary;
  /** What the session holds in memory now. */
  retained(): ReplayRetained;
}
