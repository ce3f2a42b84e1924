import type { DecideState } from '../core/decide.js';
import type { PurchaseLists } from '../core/PurchaseLists.js';
import type { CompiledOfferSet } from '../matching/compileOffers.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../model/parseTransaction.js';
import { readActivations } from './activationLookup.js';
import type { EngineContext } from './EngineContext.js';
import { type Lookback, readLookback } from './lookback.js';

/** What a batch is decided on, and the lookback window to check when it is stored. */
export interface BatchState {
  readonly state: DecideState;
  readonly lookback: Lookback | undefined;
}

/**
 * Reads what deciding a batch needs from the store, one call per resource: its customers, which
 * of its ids are stored and, when a candidate offer requires activation, the activations of its
 * customers for those offers (at once), then, when `withPurchases` and for merchants whose offers
 * read history, the customers' earlier purchases there.
 * @param ctx - the engine
 * @param partner - the tenant
 * @param items - the parsed batch
 * @param offers - the offers it is decided with
 * @param withPurchases - whether to read purchases (not for history uploads, which match nothing)
 * @returns the decide state and the lookback window
 */
export async function loadBatchState(
  ctx: EngineContext,
  partner: string,
  items: readonly ParseResult<ParsedTransaction>[],
  offers: CompiledOfferSet,
  withPurchases: boolean,
): Promise<BatchState> {
  const customerIds = new Set<string>();
  const txIds: string[] = [];
  for (const item of items) {
    if (!item.ok) continue;
    customerIds.add(item.value.customerId);
    txIds.push(item.value.transactionId);
  }
  const { store } = ctx;
  const [customerRecords, existing, activation] = await Promise.all([
    customerIds.size === 0 ? [] : store.customers.get(partner, [...customerIds]),
    txIds.length === 0 ? [] : store.transactions.existing(partner, txIds),
    readActivations(ctx, partner, items, offers),
  ]);
  const customers = new Map<string, ParsedCustomer>();
  for (const r of customerRecords) customers.set(r.customer_id, ctx.customers.get(r));
  // Usually none: a set only when a batch repeats stored ids.
  const stored = existing.length === 0 ? undefined : new Set(existing);
  let purchases: PurchaseLists | undefined;
  let lookback: Lookback | undefined;
  if (withPurchases) {
    ({ purchases, lookback } = await readLookback(ctx, partner, items, customers, offers));
  }
  const state: DecideState = {
    offers,
    options: ctx.options,
    customer: (id) => customers.get(id),
    hasTransaction: stored === undefined ? () => false : (id) => stored.has(id),
    purchases: (c, k) => purchases?.get(c, k),
    activation,
  };
  return { state, lookback };
}
