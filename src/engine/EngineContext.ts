import { type CompiledOfferSet, compileOfferSet } from '../matching/compileOffers.js';
import type { ResolvedOptions } from '../model/options.js';
import type { Store } from '../store/Store.js';
import type { BudgetGate } from './BudgetGate.js';
import type { CustomerCache } from './customerRecords.js';
import type { PartnerRegistry } from './partners.js';
import type { RevisionCache } from './RevisionCache.js';
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
  /** The offer revisions that paid stored payments, compiled. */
  readonly revisions: RevisionCache;
}

/** The store's offers compiled, recompiled only when the store's offer revision moved. */
export interface OfferCache {
  /** The offers as of now: one `offers.revision` call, and `offers.list` when it moved. */
  current(): Promise<CompiledOfferSet>;
  /**
   * The offers as of now with the store's offer revision read before them (a unit of work that
   * reads the revision again and finds it moved was decided on offers a reload has replaced), and
   * each offer's own revision (docs/concepts.md, Offer revisions), which its payments record.
   */
  snapshot(): Promise<OfferSnapshot>;
  /** Forgets the compiled offers, so that the next `current` reads them again. */
  forget(): void;
}

/** The store's offers at one offer-set revision. */
interface OfferSnapshot {
  /** The store's offer-set revision (`offers.revision`). */
  readonly revision: number;
  /** The offers, compiled. */
  readonly set: CompiledOfferSet;
  /** Each offer's own revision, by offer id. */
  readonly revisions: ReadonlyMap<number, number>;
}

/**
 * An offer cache over a store (docs/engine.md, decisions: offers are compiled once).
 * @param store - where offers live
 * @param options - the engine's options (their operators compile conditions)
 * @returns the cache
 */
export function createOfferCache(store: Store, options: ResolvedOptions): OfferCache {
  let compiled: OfferSnapshot | undefined;
  const snapshot = async () => {
    const revision = await store.offers.revision();
    if (compiled?.revision !== revision) {
      const stored = await store.offers.list();
      compiled = {
        revision,
        set: compileOfferSet(
          stored.map((r) => r.offer),
          { operators: options.operators, scale: options.scale },
        ),
        revisions: new Map(stored.map((r) => [r.offer.offer_id, r.revision])),
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
