import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import type { Purchase } from '../../matching/history.js';
import type { ParsedTransaction } from '../../model/parseTransaction.js';
import { purchaseOf } from '../decide.js';
import { PurchaseLists } from '../PurchaseLists.js';

/**
 * The purchases a replay keeps for lookbacks and `history` facts: only at merchants and in scopes
 * whose offers read history (a purchase in a scope is kept under the scope's key as well,
 * docs/concepts.md, Scopes), and only those that the lookback of a transaction that is not late
 * can reach, so memory grows with customers and merchants, not with the transactions read
 * (docs/replay.md, Streaming large data sets).
 */
export class PurchaseHistory {
  private readonly lists = new PurchaseLists();
  private kept = 0;
  // The newest day stored at a merchant whose offers read history; purchases older than `cutoff`
  // can be in no lookback of a transaction that is not late (see `maxLatenessDays`).
  private newestDay = Number.NEGATIVE_INFINITY;
  private cutoff = Number.NEGATIVE_INFINITY;

  /**
   * @param offers - the compiled offers: which merchants read history, and how far back
   * @param lateness - `maxLatenessDays`
   */
  constructor(
    private readonly offers: CompiledOfferSet,
    private readonly lateness: number,
  ) {}

  /** How many purchases are kept. */
  get size(): number {
    return this.kept;
  }

  /**
   * The purchases of a customer under a history key, as `DecideState.purchases` reads them.
   * @param customerId - the customer
   * @param historyKey - a merchant key, or a scope's key
   * @returns the list, if any
   */
  get(customerId: string, historyKey: string): readonly Purchase[] | undefined {
    return this.lists.get(customerId, historyKey);
  }

  /**
   * Keeps the purchases of transactions just stored (in stream order). The cutoff moves on with
   * the newest day among them first; what falls before it goes as its lists are touched.
   * @param accepted - the stored transactions
   */
  store(accepted: readonly ParsedTransaction[]): void {
    const { historyKeys } = this.offers;
    if (this.offers.scopedHistory.length > 0) {
      this.storeScoped(accepted);
      return;
    }
    if (historyKeys.size === 0) return;
    for (const tx of accepted) {
      if (tx.when.day > this.newestDay && historyKeys.has(tx.merchantKey)) {
        this.newestDay = tx.when.day;
      }
    }
    this.cutoff = this.newestDay - this.lateness - this.offers.maxLookbackDays;
    for (const tx of accepted) {
      if (historyKeys.has(tx.merchantKey)) this.keep(tx, tx.merchantKey);
    }
  }

  /** `store` when scoped offers read history: each purchase under every key that reads it. */
  private storeScoped(accepted: readonly ParsedTransaction[]): void {
    const offers = this.offers;
    const keys = accepted.map((tx) =>
      offers.historyKeysOf(tx.merchantKey, tx.merchant.id, tx.merchant.category_code),
    );
    accepted.forEach((tx, i) => {
      if (tx.when.day > this.newestDay && (keys[i] as readonly string[]).length > 0) {
        this.newestDay = tx.when.day;
      }
    });
    this.cutoff = this.newestDay - this.lateness - this.offers.maxLookbackDays;
    accepted.forEach((tx, i) => {
      for (const key of keys[i] as readonly string[]) this.keep(tx, key);
    });
  }

  /** Keeps a purchase under one key, dropping what fell before the cutoff from that list. */
  private keep(tx: ParsedTransaction, key: string): void {
    let list = this.lists.listFor(tx.customerId, key);
    if (list.length > 0 && (list[0] as Purchase).day < this.cutoff) {
      const before = list.length;
      list = list.filter((p) => p.day >= this.cutoff);
      this.kept -= before - list.length;
      this.lists.set(tx.customerId, key, list);
    }
    list.push(purchaseOf(tx));
    this.kept++;
  }
}
