import { formatDay } from '../../model/day.js';
import { type OfferCheck, ref } from './CheckContext.js';

/**
 * `activation_unseen`: the offer requires activation but the active-offers listing does not show
 * it (`active` is false, or `valid_to` is before `today` when `today` is given), so customers
 * cannot find it to opt in (docs/decisions.md, Funding controls).
 */
export const activationUnseen: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) => {
    const c = offer.compiled;
    if (c === undefined || !c.requiresActivation) return [];
    const { today } = ctx;
    const why = !c.active
      ? 'active is false'
      : today !== undefined && c.validTo < today
        ? `valid_to ${formatDay(c.validTo)} is before ${formatDay(today)}`
        : undefined;
    if (why === undefined) return [];
    return [
      {
        rule: 'activation_unseen' as const,
        level: 'warning' as const,
        offers: [ref(offer)],
        message: `requires_activation, but ${why}: the offer is not listed in active offers, so customers cannot find it to activate`,
        path: 'requires_activation',
      },
    ];
  });
