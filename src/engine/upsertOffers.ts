import { compileOfferSet } from '../matching/compileOffers.js';
import type { OfferRevision } from '../store/records.js';
import type { EngineContext } from './EngineContext.js';
import { addOfferUpdated } from './events.js';
import type { UpsertOffersResult } from './results.js';
import { sameJson } from './sameJson.js';

/**
 * `engine.upsertOffers`: validates every offer, then, in one unit of work, stores the created and
 * changed ones with their `offer.updated` events (docs/engine.md, decisions).
 * @param ctx - the engine
 * @param offers - offers as loaded
 * @returns the offer ids by kind
 * @throws OfferValidationError when any offer is invalid (nothing is stored)
 */
export async function upsertOffers(
  ctx: EngineContext,
  offers: readonly unknown[],
): Promise<UpsertOffersResult> {
  const set = compileOfferSet(offers, {
    operators: ctx.options.operators,
    scale: ctx.options.scale,
  });
  const result = await ctx.store.transaction(async (s) => {
    const stored = new Map<number, OfferRevision>();
    for (const r of await s.offers.list()) stored.set(r.offer.offer_id, r);
    const created: number[] = [];
    const updated: number[] = [];
    const unchanged: number[] = [];
    const changed: OfferRevision[] = [];
    const effective_at = ctx.clock().toISOString();
    const recount: { budgets: number[]; caps: number[] } = { budgets: [], caps: [] };
    for (const c of set.compiled) {
      const was = stored.get(c.offerId);
      const before = was?.offer;
      if (before === undefined) created.push(c.offerId);
      else if (sameJson(before, c.offer)) {
        unchanged.push(c.offerId);
        continue;
      } else {
        updated.push(c.offerId);
        // Payments of an offer count towards a budget or a cap only while it has one, so an
        // offer that gains one has its counters worked out from its stored payments; the recount
        // also waits for the units paying from the offer as it was (docs/engine.md, An offer that
        // gains a budget or a cap). Any other change needs none: counters are kept per day.
        if (c.budget !== undefined && before.budget === undefined) recount.budgets.push(c.offerId);
        if (c.customerCap !== undefined && before.customer_cap === undefined) {
          recount.caps.push(c.offerId);
        }
      }
      // Every change of any field is the offer's next revision (docs/concepts.md, Offer revisions).
      changed.push({ offer: c.offer, revision: (was?.revision ?? 0) + 1, effective_at });
    }
    if (changed.length > 0) {
      await s.offers.upsert(changed);
      if (recount.budgets.length > 0 || recount.caps.length > 0) await s.funding.recount(recount);
      await addOfferUpdated(
        ctx,
        s,
        changed.map((r) => r.offer),
      );
    }
    return { created, updated, unchanged };
  });
  ctx.offers.forget();
  return result;
}
