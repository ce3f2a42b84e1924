import { compileOffers } from '../matching/compileOffers.js';
import type { OfferRecord } from '../store/records.js';
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
  const set = compileOffers(offers, { operators: ctx.options.operators, scale: ctx.options.scale });
  const result = await ctx.store.transaction(async (s) => {
    const stored = new Map<number, OfferRecord>();
    for (const o of await s.offers.list()) stored.set(o.offer_id, o);
    const created: number[] = [];
    const updated: number[] = [];
    const unchanged: number[] = [];
    const changed: OfferRecord[] = [];
    const recount: { budgets: number[]; caps: number[] } = { budgets: [], caps: [] };
    for (const c of set.offers) {
      const before = stored.get(c.offerId);
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
      changed.push(c.offer);
    }
    if (changed.length > 0) {
      await s.offers.upsert(changed);
      if (recount.budgets.length > 0 || recount.caps.length > 0) await s.funding.recount(recount);
      await addOfferUpdated(ctx, s, changed);
    }
    return { created, updated, unchanged };
  });
  ctx.offers.forget();
  return result;
}
