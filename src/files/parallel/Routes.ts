// Which partition of `cashback replay --workers N` decides each record (docs/replay.md, Workers).
// Deciding a transaction reads its customer, the customer's purchases at its merchant key and in
// the scopes that hold it, the activations, caps and budgets of its candidate offers, and nothing
// else. So a partition by customer is right until an offer has a budget, which every customer of
// its merchants shares. When every offer is at one merchant, every record at a merchant key with
// a budgeted offer (transactions, history, activations of its offers) goes to one partition,
// chosen by a hash of the key, which knows every customer. When an offer has a budget and some
// offer is scoped (its budget, caps and history span merchants, and a merchant key no longer
// tells its candidates), every record with a candidate that keeps state (a budget, a cap, history
// or activations) goes to one partition, the pooled one, which knows every customer and every
// activation; the others, whose offers read nothing but the record and its customer, still go by
// customer.
import { candidatesOf } from '../../matching/candidates.js';
import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import type { CompiledOffer } from '../../matching/offer.js';
import { merchantKey } from '../../model/normalise.js';
import { activationKey } from '../../model/parseActivation.js';
import type { ParsedTransaction } from '../../model/parseTransaction.js';
import { isRecord } from '../../rules/_internals/isRecord.js';
import {
  type LineRoute,
  LineRouter,
  parsedLineRoute,
  partitionOf,
  partitionOfId,
} from './routeByCustomer.js';
import { BudgetLineRouter } from './routeByMerchant.js';

/** Whether an offer keeps state that records of several customers or merchants share or read. */
function keepsState(o: CompiledOffer): boolean {
  return o.funded || o.needsHistory || o.requiresActivation;
}

/** The merchant of a record as read: its name, id and category code when they are strings. */
function merchantOf(record: unknown): { name: string; id: string; code: string } | undefined {
  if (!isRecord(record) || !isRecord(record.merchant)) return undefined;
  const { name, id, category_code } = record.merchant;
  if (typeof name !== 'string') return undefined;
  return {
    name,
    id: typeof id === 'string' ? id : '',
    code: typeof category_code === 'string' ? category_code : '',
  };
}

/** Where the records of a replay over partitions go: by customer, by budgeted merchant, or pooled. */
export class Routes {
  /** The partition of each merchant key with a budgeted offer. */
  private readonly budgeted = new Map<string, number>();
  /** The merchant key of each merchant-bound offer. */
  private readonly merchantOfOffer = new Map<number, string>();
  /** The partitions that decide a budgeted merchant. */
  private readonly owners = new Set<number>();
  /** The pooled partition, when an offer has a budget and some offer is scoped. */
  private readonly pooled: number | undefined;

  /**
   * @param offers - the compiled offers
   * @param partitions - how many partitions
   */
  constructor(
    private readonly offers: CompiledOfferSet,
    readonly partitions: number,
  ) {
    const budgets = partitions > 1 && offers.compiled.some((o) => o.budget !== undefined);
    // The last partition, a worker thread: partition 0 also reads, routes and merges.
    this.pooled =
      budgets && offers.compiled.some((o) => o.scope !== undefined) ? partitions - 1 : undefined;
    if (this.pooled !== undefined) {
      this.owners.add(this.pooled);
      return;
    }
    for (const o of offers.compiled) {
      const key = o.merchantKey as string;
      this.merchantOfOffer.set(o.offerId, key);
      if (o.budget !== undefined && budgets) {
        const p = partitionOfId(key, partitions);
        this.budgeted.set(key, p);
        this.owners.add(p);
      }
    }
  }

  /**
   * Whether a partition decides a merchant with a budgeted offer (or the pooled records), so sees
   * any customer: it is given every customer.
   * @param partition - a partition
   * @returns whether it does
   */
  decidesBudgets(partition: number): boolean {
    return this.owners.has(partition);
  }

  /**
   * The pooled partition of a merchant, when records are pooled and a candidate there keeps state.
   * @returns the pooled partition, or `undefined` when the merchant's records go by customer
   */
  private ofPooled(key: string, id: string, code: string): number | undefined {
    if (this.pooled === undefined) return undefined;
    const candidates = candidatesOf(this.offers, key, id, code);
    return candidates?.some(keepsState) === true ? this.pooled : undefined;
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
   * @param tx - the transaction: its customer, merchant key, merchant id and category code
   * @returns its partition
   */
  ofTransaction(tx: ParsedTransaction): number {
    const { id, category_code } = tx.merchant;
    return (
      this.ofPooled(tx.merchantKey, id, category_code) ??
      this.budgeted.get(tx.merchantKey) ??
      partitionOfId(tx.customerId, this.partitions)
    );
  }

  /**
   * The partition of a transaction as read. One whose merchant name or customer id is not a
   * string is invalid wherever it goes: it goes by its customer id, or to partition 0.
   * @param record - a transaction as read
   * @returns its partition
   */
  ofRecord(record: unknown): number {
    if (this.budgeted.size > 0 || this.pooled !== undefined) {
      const m = merchantOf(record);
      if (m !== undefined) {
        const key = merchantKey(m.name);
        const p = this.ofPooled(key, m.id, m.code) ?? this.budgeted.get(key);
        if (p !== undefined) return p;
      }
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
    if (this.pooled !== undefined) return this.pooled;
    const slash = key.lastIndexOf('/');
    const merchant = this.merchantOfOffer.get(Number(key.slice(slash + 1)));
    const customerId = key.slice(0, slash);
    const budgeted = merchant === undefined ? undefined : this.budgeted.get(merchant);
    return budgeted ?? partitionOfId(customerId, this.partitions);
  }

  /**
   * Routes the NDJSON lines of a buffer, taken in order.
   * @param bytes - the buffer holding the lines
   * @returns the router
   */
  lines(bytes: Buffer): LineRoute {
    if (this.pooled !== undefined) {
      // Which candidates a line has depends on its merchant's name, id and category code.
      return { route: (start, end) => parsedLineRoute(bytes, start, end, (r) => this.ofRecord(r)) };
    }
    const byCustomer = new LineRouter(bytes, this.partitions);
    if (this.budgeted.size === 0) return byCustomer;
    return new BudgetLineRouter(bytes, byCustomer, {
      merchant: (key) => this.ofBudgetedMerchant(key),
      record: (record) => this.ofRecord(record),
    });
  }
}
