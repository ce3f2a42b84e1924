import { compileOffers, type OfferSet } from '../matching/compileOffers.js';
import type { ResolvedOptions } from '../model/options.js';
import type { Store } from '../store/Store.js';
import type { BudgetGate } from './BudgetGate.js';
import type { CustomerCache } from './customerRecords.js';
import type { PartnerRegistry } from './partners.js';
import type { PurchaseCache } from './transactionRecords.js';

/** What every operation of one engine shares: its options, store, clock, ids and caches. */
export interface EngineContext {
  readonly options: ResolvedOptions;
  readonly store: Store;
  readonly clock: () => Date;
  readonly ids: () => string;
  readonly partners: PartnerRegistry;
  readonly customers: CustomerCache;
  readonly purchases: PurchaseCache;
  readonly offers: OfferCache;
  /** Units of work holding one budget, let through one at a time. */
  readonly budgets: BudgetGate;
}

/** The store's offers compiled, recompiled only when the store's offer revision moved. */
export interface OfferCache {
  /** The offers as of now: one `offers.revision` call, and `offers.list` when it moved. */
  current(): Promise<OfferSet>;
  /**
   * The offers as of now with the store's offer revision read before them: a unit of work that
   * reads the revision again and finds it moved was decided on offers a reload has replaced.
   */
  snapshot(): Promise<{ readonly revision: number; readonly set: OfferSet }>;
  /** Forgets the compiled offers, so that the next `current` reads them again. */
  forget(): void;
}

/**
 * An offer cache over a store (docs/engine.md, decisions: offers are compiled once).
 * @param store - where offers live
 * @param options - the engine's options (their operators compile conditions)
 * @returns the cache
 */
export function createOfferCache(store: Store, options: ResolvedOptions): OfferCache {
  let compiled: { readonly revision: number; readonly set: OfferSet } | undefined;
  const snapshot = async () => {
    const revision = await store.offers.revision();
    if (compiled?.revision !== revision) {
      const records = await store.offers.list();
      compiled = {
        revision,
        set: compileOffers(records, { operators: options.operators, scale: options.scale }),
      };
    }
    return compiled;
  };
  return {
    snapshot,
    async current() {
      return (await snapshot()).set;
    },
    forget() {
      compiled = undefined;
    },
  };
}
