// Which partition of `cashback replay --workers N` decides each record (docs/replay.md, Workers).
// Deciding a transaction reads its customer, the customer's purchases at its merchant key, the
// activations, caps and budgets of that merchant's offers, and nothing else. So a partition by
// customer is right until an offer has a budget, which every customer of its merchant shares:
// then every record at that merchant key (transactions, history, activations of its offers) goes
// to one partition, chosen by a hash of the key, which knows every customer.
import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import { merchantKey } from '../../model/normalise.js';
import { activationKey } from '../../model/parseActivation.js';
import { isRecord } from '../../rules/_internals/isRecord.js';
import { type LineRoute, LineRouter, partitionOf, partitionOfId } from './routeByCustomer.js';
import { BudgetLineRouter } from './routeByMerchant.js';

/** Where the records of a replay over partitions go: by customer, or by budgeted merchant. */
export class Routes {
  /** The partition of each merchant key with a budgeted offer. */
  private readonly budgeted = new Map<string, number>();
  /** The merchant key of each offer. */
  private readonly merchantOfOffer = new Map<number, string>();
  /** The partitions that decide a budgeted merchant. */
  private readonly owners = new Set<number>();

  /**
   * @param offers - the compiled offers
   * @param partitions - how many partitions
   */
  constructor(
    offers: CompiledOfferSet,
    readonly partitions: number,
  ) {
    for (const o of offers.compiled) {
      this.merchantOfOffer.set(o.offerId, o.merchantKey);
      if (o.budget !== undefined && partitions > 1) {
        const p = partitionOfId(o.merchantKey, partitions);
        this.budgeted.set(o.merchantKey, p);
        this.owners.add(p);
      }
    }
  }

  /**
   * Whether a partition decides a merchant with a budgeted offer, so sees any customer: it is
   * given every customer.
   * @param partition - a partition
   * @returns whether it does
   */
  decidesBudgets(partition: number): boolean {
    return this.owners.has(partition);
  }

  /**
   * The partition that decides a merchant key's budgeted offers.
   * @param key - a merchant key
   * @returns its partition, or `undefined` when no offer at that key has a budget
   */
  ofBudgetedMerchant(key: string): number | undefined {
    return this.budgeted.get(key);
  }

  /**
   * The partition of a parsed transaction (or history transaction).
   * @param customerId - its customer, trimmed
   * @param key - its merchant key
   * @returns its partition
   */
  ofTransaction(customerId: string, key: string): number {
    return this.budgeted.get(key) ?? partitionOfId(customerId, this.partitions);
  }

  /**
   * The partition of a transaction as read. One whose merchant name or customer id is not a
   * string is invalid wherever it goes: it goes by its customer id, or to partition 0.
   * @param record - a transaction as read
   * @returns its partition
   */
  ofRecord(record: unknown): number {
    if (this.budgeted.size > 0 && isRecord(record) && isRecord(record.merchant)) {
      const name = record.merchant.name;
      const p = typeof name === 'string' ? this.budgeted.get(merchantKey(name)) : undefined;
      if (p !== undefined) return p;
    }
    return partitionOf(record, this.partitions);
  }

  /**
   * The partition of an activation as read: that of its customer's transactions at its offer's
   * merchant. Every copy of a (customer, offer) pair goes to the same one, which rejects them
   * all as one replay does.
   * @param item - an activation as read
   * @param index - its position in its file
   * @returns its partition, or `undefined` for an item with no usable customer or offer (rejected
   *   by one replay, and needed by no partition)
   */
  ofActivation(item: unknown, index: number): number | undefined {
    const key = activationKey(item, index);
    if (key.startsWith('#')) return undefined;
    const slash = key.lastIndexOf('/');
    const merchant = this.merchantOfOffer.get(Number(key.slice(slash + 1)));
    const customerId = key.slice(0, slash);
    return merchant === undefined
      ? partitionOfId(customerId, this.partitions)
      : this.ofTransaction(customerId, merchant);
  }

  /**
   * Routes the NDJSON lines of a buffer, taken in order.
   * @param bytes - the buffer holding the lines
   * @returns the router
   */
  lines(bytes: Buffer): LineRoute {
    const byCustomer = new LineRouter(bytes, this.partitions);
    if (this.budgeted.size === 0) return byCustomer;
    return new BudgetLineRouter(bytes, byCustomer, {
      merchant: (key) => this.ofBudgetedMerchant(key),
      record: (record) => this.ofRecord(record),
    });
  }
}
