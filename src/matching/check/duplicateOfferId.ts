import { type CheckedOffer, type OfferCheck, ref } from './CheckContext.js';

/** `duplicate_offer_id`: offers that share an `offer_id`; loading the file would fail. */
export const duplicateOfferId: OfferCheck = (ctx) => {
  const byId = new Map<number, CheckedOffer[]>();
  for (const offer of ctx.offers) {
    const id = offer.compiled?.offerId;
    if (id === undefined) continue;
    const list = byId.get(id);
    if (list === undefined) byId.set(id, [offer]);
    else list.push(offer);
  }
  return [...byId]
    .filter(([, offers]) => offers.length > 1)
    .map(([id, offers]) => ({
      rule: 'duplicate_offer_id' as const,
      level: 'error' as const,
      offers: offers.map(ref),
      message: `offer_id ${id} is used by ${offers.length} offers; loading them fails`,
      path: 'offer_id',
    }));
};
