import type { OfferSet } from '../../matching/compileOffers.js';
import type { ResolvedOptions } from '../../model/options.js';
import type { ParsedCustomer } from '../../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../../model/parseTransaction.js';
import { screenCustomers } from '../customers.js';
import { screenHistory } from '../decide.js';
import { parseTransactions } from '../parseTransactions.js';
import { Ledger } from './Ledger.js';
import type { ReplayResult } from './ReplayResult.js';

/** Where every replay starts: customers applied as one request, then history. */
export interface ReplayStart {
  /** The registered customers by id. */
  readonly customers: ReadonlyMap<string, ParsedCustomer>;
  /** The stored ids and dates, history recorded. */
  readonly ledger: Ledger;
  /** Customers and history not applied. */
  readonly rejected: ReplayResult['rejected'];
  /** The history items as parsed, in input order. */
  readonly history: readonly ParseResult<ParsedTransaction>[];
  /** The history transactions stored, in input order. */
  readonly stored: readonly ParsedTransaction[];
}

/**
 * Applies customers then history, as `POST /customers` then `POST /transactions-history` would
 * (docs/replay.md, Order).
 * @param offers - the compiled offers
 * @param customers - customers as given
 * @param history - history transactions as given
 * @param options - the resolved core options
 * @param lateness - `maxLatenessDays`
 * @returns the registered customers, the ledger and the rejections
 */
export function startReplay(
  offers: OfferSet,
  customers: readonly unknown[],
  history: readonly unknown[],
  options: ResolvedOptions,
  lateness: number,
): ReplayStart {
  const customerBatch = screenCustomers(customers);
  const registered = new Map<string, ParsedCustomer>();
  for (const c of customerBatch.accepted) registered.set(c.customerId, c);
  const ledger = new Ledger(offers.historyKeys, lateness);
  const items = parseTransactions(history, options.timeZone, true);
  const historyBatch = screenHistory(items, {
    offers,
    options,
    customer: (id) => registered.get(id),
    hasTransaction: (id) => ledger.has(id),
    purchases: () => undefined,
  });
  ledger.storeHistory(historyBatch.accepted);
  return {
    customers: registered,
    ledger,
    rejected: { customers: customerBatch.errors, history: historyBatch.errors },
    history: items,
    stored: historyBatch.accepted,
  };
}
