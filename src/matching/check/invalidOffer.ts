import { type OfferCheck, ref } from './CheckContext.js';

/**
 * `invalid_offer`: every validation problem of every offer, with its path (the offers were
 * compiled one by one, so one bad offer does not hide the others' findings).
 */
export const invalidOffer: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) =>
    (offer.issues ?? []).map((issue) => ({
      rule: 'invalid_offer' as const,
      level: 'error' as const,
      offers: [ref(offer)],
      message: issue.path === '' ? issue.message : `${issue.path} ${issue.message}`,
      ...(issue.path === '' ? {} : { path: issue.path }),
    })),
  );
