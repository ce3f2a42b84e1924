import type { Outcome } from '../outcome.js';
import type { ReturnOutcome } from '../returns/ReturnOutcome.js';
import type { ReplaySession } from './ReplaySession.js';
import { dateOf, type ReturnCursor } from './ReturnCursor.js';

/** The outcomes of a chunk of transactions and of the returns merged before them. */
export interface MergedOutcomes {
  /** One per transaction of the chunk, in order. */
  readonly outcomes: readonly Outcome[];
  /** One per return pushed, in order. */
  readonly returns: readonly ReturnOutcome[];
}

/**
 * Pushes a chunk of transactions with the returns that go before each of them, in the merge order
 * (docs/replay.md, Returns): runs of transactions and runs of returns, each pushed whole, which
 * decides as pushing them one by one would.
 * @param session - a session that takes returns
 * @param transactions - the next chunk of transactions
 * @param cursor - the returns not yet pushed
 * @param timeZone - the session's zone, to read the transactions' dates
 * @returns the outcomes of the chunk and of the returns pushed
 */
export function pushMerged(
  session: Pick<ReplaySession, 'push' | 'pushReturns'>,
  transactions: readonly unknown[],
  cursor: ReturnCursor,
  timeZone: string,
): MergedOutcomes {
  if (cursor.done) return { outcomes: session.push(transactions), returns: [] };
  const outcomes: Outcome[] = [];
  const returns: ReturnOutcome[] = [];
  let start = 0;
  for (let i = 0; i < transactions.length && !cursor.done; i++) {
    const date = dateOf(transactions[i], timeZone);
    if (!cursor.before(date)) continue;
    if (i > start) append(outcomes, session.push(transactions.slice(start, i)));
    start = i;
    append(returns, session.pushReturns(cursor.take(date)));
  }
  if (start < transactions.length) append(outcomes, session.push(transactions.slice(start)));
  return { outcomes, returns };
}

/** Appends without spreading: a chunk can be longer than the call stack allows arguments. */
function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}
