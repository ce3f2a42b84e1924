import { capAtScale } from '../cashback.js';
import { type OfferCheck, ref } from './CheckContext.js';

/**
 * `zero_max_cashback`: `max_cashback` rounds down to 0 at the engine's scale, so every purchase
 * ends as `zero_cashback` (the cap is rounded down so that it is never exceeded).
 */
export const zeroMaxCashback: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) => {
    const cap = offer.compiled?.maxCashback;
    if (cap === undefined || !capAtScale(cap, ctx.options).isZero()) return [];
    return [
      {
        rule: 'zero_max_cashback' as const,
        level: 'error' as const,
        offers: [ref(offer)],
        message: `max_cashback ${cap.text} rounds down to 0 at ${ctx.options.scale} decimal places: every purchase would be zero_cashback`,
        path: 'max_cashback',
      },
    ];
  });
