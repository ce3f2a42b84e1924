import { compileOfferSet } from '../matching/compileOffers.js';
import type { CompiledOffer } from '../matching/offer.js';
import type { ResolvedOptions } from '../model/options.js';
import type { PaymentRecord } from '../store/records.js';
import type { StoreSession } from '../store/Store.js';

/**
 * The offer revisions that paid stored payments, compiled (docs/concepts.md, Offer revisions): a
 * return works its payment out with these terms, whatever the offer is now. A revision never
 * changes once stored, so each is compiled once per engine.
 */
export class RevisionCache {
  private readonly compiled = new Map<string, CompiledOffer>();

  /** @param options - the engine's options (their operators compile conditions) */
  constructor(private readonly options: ResolvedOptions) {}

  /**
   * The terms of the revisions that paid `payments`, reading from the store (one `offers.history`
   * call) only the offers with a revision not compiled yet.
   * @param s - where to read revisions
   * @param payments - the payments
   * @returns the compiled revision of an offer id and revision number, if the store has it
   */
  async of(
    s: Pick<StoreSession, 'offers'>,
    payments: readonly PaymentRecord[],
  ): Promise<(offerId: number, revision: number) => CompiledOffer | undefined> {
    const missing = new Set<number>();
    for (const p of payments) {
      if (!this.compiled.has(key(p.offer_id, p.offer_revision))) missing.add(p.offer_id);
    }
    if (missing.size > 0) {
      for (const r of await s.offers.history([...missing])) {
        const k = key(r.offer.offer_id, r.revision);
        if (this.compiled.has(k)) continue;
        const set = compileOfferSet([r.offer], { operators: this.options.operators });
        this.compiled.set(k, set.compiled[0] as CompiledOffer);
      }
    }
    return (offerId, revision) => this.compiled.get(key(offerId, revision));
  }
}

/** The key of one revision of one offer. */
function key(offerId: number, revision: number): string {
  return `${offerId}/${revision}`;
}
