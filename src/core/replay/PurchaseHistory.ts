import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import type { Purchase } from '../../matching/history.js';
import type { ParsedTransaction } from '../../model/parseTransaction.js';
import { purchaseOf } from '../decide.js';
import { PurchaseLists } from '../PurchaseLists.js';

/**
 * The purchases a replay keeps for lookbacks and `history` facts: only at merchants whose offers
 * read history, and only those that the lookback of a transaction that is not late can reach, so
 * memory grows with customers and merchants, not with the transactions read (docs/replay.md,
 * Streaming large data sets).
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
   * The purchases of a customer at a merchant, as `DecideState.purchases` reads them.
   * @param customerId - the customer
   * @param merchantKey - the merchant key
   * @returns the list, if any
   */
  get(customerId: string, merchantKey: string): readonly Purchase[] | undefined {
    return this.lists.get(customerId, merchantKey);
  }

  /**
   * Keeps the purchases of transactions just stored (in stream order). The cutoff moves on with
   * the newest day among them first; what falls before it goes as its lists are touched.
   * @param accepted - the stored transactions
   */
  store(accepted: readonly ParsedTransaction[]): void {
    const { historyKeys } = this.offers;
    if (historyKeys.size === 0) return;
    for (const tx of accepted) {
      if (tx.when.day > this.newestDay && historyKeys.has(tx.merchantKey)) {
        this.newestDay = tx.when.day;
      }
    }
    this.cutoff = this.newestDay - this.lateness - this.offers.maxLookbackDays;
    for (const tx of accepted) {
      if (!historyKeys.has(tx.merchantKey)) continue;
      let list = this.lists.listFor(tx.customerId, tx.merchantKey);
      if (list.length > 0 && (list[0] as Purchase).day < this.cutoff) {
        const before = list.length;
        list = list.filter((p) => p.day >= this.cutoff);
        this.kept -= before - list.length;
        this.lists.set(tx.customerId, tx.merchantKey, list);
      }
      list.push(purchaseOf(tx));
      this.kept++;
    }
  }
}
