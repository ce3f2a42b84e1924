import { formatDay } from '../../model/day.js';
import { type OfferCheck, ref } from './CheckContext.js';

/** `expired`: `valid_to` is before `today` (only when `today` is given). */
export const expired: OfferCheck = (ctx) => {
  const { today } = ctx;
  if (today === undefined) return [];
  return ctx.offers
    .filter((offer) => offer.compiled !== undefined && offer.compiled.validTo < today)
    .map((offer) => ({
      rule: 'expired' as const,
      level: 'warning' as const,
      offers: [ref(offer)],
      message: `valid_to ${formatDay(offer.compiled?.validTo ?? 0)} is before ${formatDay(today)}: the offer never pays again`,
      path: 'valid_to',
    }));
};
