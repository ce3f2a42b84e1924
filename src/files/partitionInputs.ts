import { screenCustomers, screenHistory, TransactionIdSet } from '../core/index.js';
import { parseTransactions } from '../core/parseTransactions.js';
import type { ReplayResult } from '../core/replay.js';
import type { OfferSet } from '../matching/compileOffers.js';
import type { ResolvedOptions } from '../model/options.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import { partitionOf, partitionOfId } from './partition.js';

/** Where a replay over partitions starts: what one replay would have after customers and history. */
export interface PartitionedInputs {
  /** Customers and history rejected, as one replay rejects them. */
  readonly rejected: ReplayResult['rejected'];
  /** How many customers are registered. */
  readonly customers: number;
  /** The ids of the stored history: a transaction reusing one is a duplicate. */
  readonly ids: TransactionIdSet;
  /** The newest day of the stored history at a merchant whose offers read history. */
  readonly newest: number;
  /** Each partition's customers (as read: it rejects the same ones) and stored history. */
  readonly parts: readonly { readonly customers: unknown[]; readonly history: unknown[] }[];
}

/**
 * Screens customers and history once, as one replay does, and shares them out by customer. A
 * history transaction is a duplicate of any earlier one, whoever's, so only this thread, which
 * sees them all, can tell which are stored; a partition gets only those of its customers.
 * @param offers - the compiled offers
 * @param customers - all customers, as read
 * @param history - all history transactions, as read
 * @param options - the replay's options
 * @param partitions - how many partitions
 * @returns the rejections, the stored ids and each partition's share
 */
export function partitionInputs(
  offers: OfferSet,
  customers: readonly unknown[],
  history: readonly unknown[],
  options: ResolvedOptions,
  partitions: number,
): PartitionedInputs {
  const screened = screenCustomers(customers);
  const registered = new Map<string, ParsedCustomer>();
  for (const c of screened.accepted) registered.set(c.customerId, c);
  const ids = new TransactionIdSet();
  const items = parseTransactions(history, options.timeZone, true);
  const historyBatch = screenHistory(items, {
    offers,
    options,
    customer: (id) => registered.get(id),
    hasTransaction: (id) => ids.has(id),
    purchases: () => undefined,
  });
  const stored = new Set(historyBatch.accepted);
  const parts = Array.from({ length: partitions }, () => ({
    customers: [] as unknown[],
    history: [] as unknown[],
  }));
  for (const c of customers) parts[partitionOf(c, partitions)]?.customers.push(c);
  let newest = Number.NEGATIVE_INFINITY;
  items.forEach((item, i) => {
    if (!item.ok || !stored.has(item.value)) return;
    const tx = item.value;
    ids.add(tx.transactionId);
    if (offers.historyKeys.has(tx.merchantKey)) newest = Math.max(newest, tx.when.day);
    parts[partitionOfId(tx.customerId, partitions)]?.history.push(history[i]);
  });
  return {
    rejected: { customers: screened.errors, history: historyBatch.errors },
    customers: registered.size,
    ids,
    newest,
    parts,
  };
}
