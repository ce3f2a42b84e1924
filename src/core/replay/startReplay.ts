import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import type { WallClock } from '../../model/dateTime.js';
import type { ResolvedOptions } from '../../model/options.js';
import type { ParsedCustomer } from '../../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../../model/parseTransaction.js';
import { screenActivations, screenActivationTargets } from '../activations.js';
import { screenCustomers } from '../customers.js';
import type { DecideState } from '../decide.js';
import { screenHistory } from '../decide.js';
import { parseTransactions } from '../parseTransactions.js';
import type { ReplayResult } from './ReplayResult.js';
import { Screener } from './Screener.js';

/** Where every replay starts: customers applied as one request, then history. */
export interface ReplayStart {
  /** The registered customers by id. */
  readonly customers: ReadonlyMap<string, ParsedCustomer>;
  /** When each customer activated each offer; absent when nobody did. */
  readonly activation: DecideState['activation'];
  /** The stored ids and dates, history recorded. */
  readonly screener: Screener;
  /** Customers, activations and history not applied. */
  readonly rejected: ReplayResult['rejected'];
  /** The history items as parsed, in input order. */
  readonly history: readonly ParseResult<ParsedTransaction>[];
  /** The history transactions stored, in input order. */
  readonly stored: readonly ParsedTransaction[];
}

/**
 * Applies customers, activations then history, as `POST /customers`, `POST /activations` then
 * `POST /transactions-history` would (docs/replay.md, Order).
 * @param offers - the compiled offers
 * @param customers - customers as given
 * @param history - history transactions as given
 * @param options - the resolved core options
 * @param lateness - `maxLatenessDays`
 * @param activations - activations as given (`date` required)
 * @returns the registered customers, the screener and the rejections
 */
export function startReplay(
  offers: CompiledOfferSet,
  customers: readonly unknown[],
  history: readonly unknown[],
  options: ResolvedOptions,
  lateness: number,
  activations: readonly unknown[] = [],
): ReplayStart {
  const customerBatch = screenCustomers(customers);
  const registered = new Map<string, ParsedCustomer>();
  for (const c of customerBatch.accepted) registered.set(c.customerId, c);
  const activationStart = applyActivations(offers, registered, activations, options.timeZone);
  const screener = new Screener(offers, lateness);
  const items = parseTransactions(history, options.timeZone, true);
  const historyBatch = screenHistory(items, {
    offers,
    options,
    customer: (id) => registered.get(id),
    hasTransaction: (id) => screener.has(id),
    purchases: () => undefined,
  });
  screener.storeHistory(historyBatch.accepted);
  return {
    customers: registered,
    activation: activationStart.activation,
    screener,
    rejected: {
      customers: customerBatch.errors,
      activations: activationStart.errors,
      history: historyBatch.errors,
    },
    history: items,
    stored: historyBatch.accepted,
  };
}

/** The activations screened as one request against the registered customers and the offers. */
function applyActivations(
  offers: CompiledOfferSet,
  customers: ReadonlyMap<string, ParsedCustomer>,
  activations: readonly unknown[],
  timeZone: string,
) {
  const offerIds = new Set(offers.compiled.map((o) => o.offerId));
  const batch = screenActivationTargets(screenActivations(activations, timeZone, true), {
    hasCustomer: (id) => customers.has(id),
    hasOffer: (id) => offerIds.has(id),
  });
  if (batch.accepted.length === 0) return { activation: undefined, errors: batch.errors };
  const byCustomer = new Map<string, Map<number, WallClock>>();
  for (const a of batch.accepted) {
    const byOffer = byCustomer.get(a.customerId) ?? new Map<number, WallClock>();
    byOffer.set(a.offerId, a.when as WallClock);
    byCustomer.set(a.customerId, byOffer);
  }
  const activation = (customerId: string, offerId: number) =>
    byCustomer.get(customerId)?.get(offerId);
  return { activation, errors: batch.errors };
}
