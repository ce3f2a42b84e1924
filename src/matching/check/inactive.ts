import { type OfferCheck, ref } from './CheckContext.js';

/** `inactive`: `active` is false, so the offer never pays (a warning: it may be on purpose). */
export const inactive: OfferCheck = (ctx) =>
  ctx.offers
    .filter((offer) => offer.compiled?.active === false)
    .map((offer) => ({
      rule: 'inactive' as const,
      level: 'warning' as const,
      offers: [ref(offer)],
      message: 'active is false: the offer never pays',
      path: 'active',
    }));
