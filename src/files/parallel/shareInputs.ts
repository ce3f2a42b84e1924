import type { Ledger } from '../../core/replay/Ledger.js';
import type { ReplayResult } from '../../core/replay/ReplayResult.js';
import { startReplay } from '../../core/replay/startReplay.js';
import type { OfferSet } from '../../matching/compileOffers.js';
import type { ResolvedOptions } from '../../model/options.js';
import { partitionOf, partitionOfId } from './routeByCustomer.js';

/** Where a replay over partitions starts: what one replay would have after customers and history. */
export interface SharedInputs {
  /** Customers and history rejected, as one replay rejects them. */
  readonly rejected: ReplayResult['rejected'];
  /** How many customers are registered. */
  readonly customers: number;
  /** The ids and newest day of the stored history: the ledger every partition's items go through. */
  readonly ledger: Ledger;
  /** Each partition's customers (as read: it rejects the same ones) and stored history. */
  readonly parts: readonly { readonly customers: unknown[]; readonly history: unknown[] }[];
}

/**
 * Starts the replay once, as one replay starts, and shares customers and stored history out by
 * customer. A history transaction is a duplicate of any earlier one, whoever's, so only this
 * thread, which sees them all, can tell which are stored; a partition gets only those of its
 * customers.
 * @param offers - the compiled offers
 * @param customers - all customers, as read
 * @param history - all history transactions, as read
 * @param options - the replay's options
 * @param lateness - `maxLatenessDays`
 * @param partitions - how many partitions
 * @returns the rejections, the ledger and each partition's share
 */
export function shareInputs(
  offers: OfferSet,
  customers: readonly unknown[],
  history: readonly unknown[],
  options: ResolvedOptions,
  lateness: number,
  partitions: number,
): SharedInputs {
  const start = startReplay(offers, customers, history, options, lateness);
  const stored = new Set(start.stored);
  const parts = Array.from({ length: partitions }, () => ({
    customers: [] as unknown[],
    history: [] as unknown[],
  }));
  for (const c of customers) parts[partitionOf(c, partitions)]?.customers.push(c);
  start.history.forEach((item, i) => {
    if (!item.ok || !stored.has(item.value)) return;
    parts[partitionOfId(item.value.customerId, partitions)]?.history.push(history[i]);
  });
  return {
    rejected: start.rejected,
    customers: start.customers.size,
    ledger: start.ledger,
    parts,
  };
}
