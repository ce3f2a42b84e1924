import { type OfferCheck, ref } from './CheckContext.js';

/**
 * `eligible_below_minimum` (warning): a percent reward's `max_eligible_amount` is below
 * `min_amount`, so every purchase that qualifies earns the rate on `max_eligible_amount` only: a
 * flat amount, whatever it spends (docs/concepts.md, Rewards).
 */
export const eligibleBelowMinimum: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) => {
    const c = offer.compiled;
    const reward = c?.reward;
    const min = c?.minAmount;
    if (reward?.type !== 'percent' || reward.maxEligible === undefined || min === undefined) {
      return [];
    }
    const eligible = reward.maxEligible;
    if (!eligible.decimal.lt(min.decimal)) return [];
    return [
      {
        rule: 'eligible_below_minimum' as const,
        level: 'warning' as const,
        offers: [ref(offer)],
        message: `max_eligible_amount ${eligible.text} is below min_amount ${min.text}: every purchase that qualifies earns ${reward.rate.text}% of ${eligible.text}, the same whatever it spends`,
        path: 'reward.max_eligible_amount',
      },
    ];
  });
