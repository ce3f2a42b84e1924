import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { TransactionRecord } from '../store/records.js';
import type { StoreSession } from '../store/Store.js';
import type { EngineContext } from './EngineContext.js';
import { type Lookback, lookbackHolds } from './lookback.js';
import { transactionRecord } from './transactionRecords.js';

/**
 * Thrown inside a unit of work when a racing call got in first: it stored one of the batch's ids
 * (`ids`), a purchase the batch's lookback would now read (`lookback`), a return of a
 * transaction the batch returns (`returns`), or offers that replace those the batch was decided
 * on (`offers`). The unit keeps nothing.
 */
export class Conflict extends Error {
  constructor(readonly kind: 'ids' | 'lookback' | 'returns' | 'offers') {
    super(`conflict: ${kind}`);
  }
}

/**
 * How many times in one call a batch is decided again because racing calls kept storing purchases
 * its lookback reads (or returns of its transactions), before the call gives up.
 */
const LOOKBACK_RETRIES = 32;

/** What racing calls kept storing, by the kind of conflict that retries without a bound. */
const RACED: Readonly<Record<'lookback' | 'returns' | 'offers', string>> = {
  lookback: "purchases of this batch's customers",
  returns: "returns of this batch's transactions",
  offers: 'offers',
};

/**
 * Runs `attempt` (read, decide, commit) until it commits; when a racing call got in between, the
 * batch is read and decided again. Each id retry follows a commit that stored one more of the
 * batch's ids, so a store that keeps the insert-if-absent contract needs at most as many as items;
 * past that the store is broken and the call throws. Lookback and return retries have no such
 * bound: after `LOOKBACK_RETRIES` of them in one call it throws, and nothing of it is stored
 * (docs/engine.md).
 * @param items - how many items the batch has
 * @param attempt - one read, decide and commit; a `Conflict` when the commit was abandoned
 * @returns what the attempt that committed returned
 */
export async function untilCommitted<R>(
  items: number,
  attempt: () => Promise<R | Conflict>,
): Promise<R> {
  let idRetries = 0;
  let raceRetries = 0;
  for (;;) {
    const r = await attempt();
    if (!(r instanceof Conflict)) return r;
    if (r.kind === 'ids' && ++idRetries > items + 1) {
      throw new Error(
        'The store keeps reporting ids as stored that it did not list as existing; it breaks ' +
          'the insert-if-absent contract of its repositories (docs/stores.md)',
      );
    }
    if (r.kind !== 'ids' && ++raceRetries > LOOKBACK_RETRIES) {
      throw new Error(
        `Racing calls stored ${RACED[r.kind]} ${LOOKBACK_RETRIES} times ` +
          'between reading and storing it; nothing was stored, send it again',
      );
    }
  }
}

/** What one batch stores. */
export interface BatchCommit {
  readonly partner: string;
  /** Transactions to store, in input order. */
  readonly accepted: readonly ParsedTransaction[];
  readonly source: TransactionRecord['source'];
  /** The window the batch was decided on, checked again after the insert. */
  readonly lookback?: Lookback;
  /** The rest of the unit: payments and events. */
  readonly more?: (session: StoreSession) => Promise<void>;
}

/**
 * Throws `Conflict('offers')` unless the store's offer revision is still `revision`: read last in
 * a unit of work, after its payments and counters are written, so that a reload that committed
 * since the batch read its offers sends it back to be decided on the new ones (docs/engine.md,
 * Budgets and caps racing).
 * @param s - the unit's session
 * @param revision - the revision the batch's offers were read at
 */
export async function offersStill(s: StoreSession, revision: number): Promise<void> {
  if ((await s.offers.revision()) !== revision) throw new Conflict('offers');
}

/** The customers whose purchases a lookback read: those of its pairs, and those read whole. */
function heldCustomers(lookback: Lookback | undefined): string[] {
  if (lookback === undefined) return [];
  const { pairs, customers = [] } = lookback.query;
  return [...new Set([...pairs.map((p) => p.customerId), ...customers])];
}

/**
 * Stores a decided batch in one unit of work: the transactions (insert-if-absent), the lookback
 * check, then `more`. Abandons the unit when the insert reports fewer new ids than it was sent,
 * or the lookback moved.
 * @returns `undefined` when it committed, the `Conflict` when it was abandoned
 */
export async function commitBatch(
  ctx: EngineContext,
  batch: BatchCommit,
): Promise<Conflict | undefined> {
  const { partner, accepted, lookback, more } = batch;
  const records = accepted.map((tx) => transactionRecord(tx, batch.source));
  // A decided batch holds the customers whose purchases it read, and no other: a racing unit can
  // change no other part of what it decided on (docs/engine.md, concurrency). History is not
  // decided, and holds every customer it stores purchases of, for the batches that read them.
  const options = batch.source === 'history' ? undefined : { hold: heldCustomers(lookback) };
  try {
    await ctx.store.transaction(async (s) => {
      if (records.length > 0) {
        const inserted = await s.transactions.insert(partner, records, options);
        if (inserted.length !== records.length) throw new Conflict('ids');
      }
      if (lookback !== undefined && !(await lookbackHolds(ctx, s, partner, lookback, accepted))) {
        throw new Conflict('lookback');
      }
      if (more !== undefined) await more(s);
    });
    return undefined;
  } catch (e) {
    if (e instanceof Conflict) return e;
    throw e;
  }
}
