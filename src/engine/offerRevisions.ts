import { wholeNumber } from '../model/wholeNumber.js';
import type { EngineContext } from './EngineContext.js';
import type { OfferRevisionInfo } from './results.js';
import { seedOffer } from './seedShapes.js';

/**
 * `engine.offerRevisions`: every revision of an offer, oldest first, each with the instant it
 * took effect (docs/concepts.md, Offer revisions).
 * @param ctx - the engine
 * @param offerId - the offer
 * @returns its revisions; empty when no such offer was loaded
 * @throws TypeError when `offerId` is not a positive whole number
 */
export async function offerRevisions(
  ctx: EngineContext,
  offerId: number,
): Promise<readonly OfferRevisionInfo[]> {
  const id = wholeNumber(offerId, 'offerId', { min: 1 });
  return (await ctx.store.offers.history([id])).map((r) => ({
    revision: r.revision,
    effective_at: r.effective_at,
    offer: seedOffer(r.offer),
  }));
}
