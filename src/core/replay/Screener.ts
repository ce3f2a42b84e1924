import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import { formatDay } from '../../model/day.js';
import type { ParsedTransaction } from '../../model/parseTransaction.js';
import { TransactionIdSet } from '../../model/TransactionIdSet.js';
import { type ChunkFacts, ITEM, MARK, screenMark } from '../screening.js';
import { readsHistoryOf } from './classify.js';
import { LateTransactionError } from './LateTransactionError.js';

/**
 * The ids a replay has stored and the newest day stored at a merchant whose offers read history:
 * what decides, item by item in stream order, which transactions are duplicates, which are
 * stored, and which come too late (docs/replay.md, Order; Date order and `maxLatenessDays`).
 */
export class Screener {
  private readonly ids = new TransactionIdSet();
  private newestDay = Number.NEGATIVE_INFINITY;

  /**
   * @param offers - the offers: which merchants and scopes read history
   * @param lateness - `maxLatenessDays`
   */
  constructor(
    private readonly offers: CompiledOfferSet,
    readonly lateness: number,
  ) {}

  /** How many ids are stored. */
  get size(): number {
    return this.ids.size;
  }

  /** The newest day stored at a merchant whose offers read history (`-Infinity` before any). */
  get newest(): number {
    return this.newestDay;
  }

  /**
   * Whether a transaction with this id is stored.
   * @param id - a transaction id
   * @returns whether it is
   */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /**
   * Records history that screening accepted: its ids, and its days at merchants whose offers
   * read history (history is never late: it comes before every transaction).
   * @param accepted - the stored history transactions
   */
  storeHistory(accepted: readonly ParsedTransaction[]): void {
    for (const tx of accepted) {
      this.ids.add(tx.transactionId);
      const day = tx.when.day;
      if (day > this.newestDay && readsHistoryOf(this.offers, tx)) this.newestDay = day;
    }
  }

  /**
   * Screens the next chunk of the stream in the order of `screenMark` and records its stored ids
   * and days. Only stored items count for date order, as only
   * they read history: a resubmitted old one is a duplicate, not late; which ones are stored does
   * not depend on chunking, so neither does lateness.
   * @param facts - the chunk, as the session's customers and offers describe it
   * @returns per item, a value of `MARK`
   * @throws LateTransactionError for the first stored item more than `lateness` days older than
   *   the newest before it; the screener is then as it was before the chunk
   */
  screen(facts: ChunkFacts): Uint8Array {
    const { kinds, ids, days } = facts;
    const marks = new Uint8Array(kinds.length);
    const size = this.ids.size;
    const newestBefore = this.newestDay;
    let id = 0;
    let dayAt = 0;
    try {
      for (let i = 0; i < kinds.length; i++) {
        const kind = kinds[i] as number;
        if (kind === ITEM.invalid) continue;
        const txId = ids[id++] as string;
        const day = kind === ITEM.knownAtHistoryMerchant ? (days[dayAt++] as number) : undefined;
        const mark = screenMark(kind, txId, this.ids);
        marks[i] = mark;
        if (mark === MARK.stored && day !== undefined) this.advance(txId, day);
      }
    } catch (error) {
      this.ids.truncate(size);
      this.newestDay = newestBefore;
      throw error;
    }
    return marks;
  }

  /** Moves the newest day on to `day`, or throws when `day` is late. */
  private advance(id: string, day: number): void {
    if (day < this.newestDay - this.lateness) {
      throw new LateTransactionError(id, formatDay(day), formatDay(this.newestDay), this.lateness);
    }
    if (day > this.newestDay) this.newestDay = day;
  }
}
