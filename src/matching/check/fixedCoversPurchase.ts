import { capAtScale } from '../cashback.js';
import { type OfferCheck, ref } from './CheckContext.js';

/**
 * `fixed_covers_purchase` (warning): a fixed reward (after `max_cashback`) at or above
 * `min_amount`, or with no `min_amount`: a purchase of at most the fixed amount earns its whole
 * amount back, since a fixed reward never pays more than the purchase (docs/concepts.md,
 * Rewards). Usually `min_amount` is missing or too low ("spend 75, get 10": `min_amount` 75).
 */
export const fixedCoversPurchase: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) => {
    const c = offer.compiled;
    if (c === undefined || c.reward.type !== 'fixed') return [];
    const fixed = c.reward.amount;
    const cap = c.maxCashback === undefined ? undefined : capAtScale(c.maxCashback, ctx.options);
    const pays = cap?.lt(fixed.decimal) ? cap : fixed.decimal;
    const min = c.minAmount;
    if (pays.isZero() || min?.decimal.gt(pays)) return [];
    const from = min === undefined ? 'any purchase' : `a purchase from min_amount ${min.text}`;
    return [
      {
        rule: 'fixed_covers_purchase' as const,
        level: 'warning' as const,
        offers: [ref(offer)],
        message: `the fixed reward pays up to ${pays.toFixed()}${min === undefined ? ' and the offer has no min_amount' : `, at or above its min_amount ${min.text}`}: ${from} up to ${pays.toFixed()} earns its whole amount back`,
        path: min === undefined ? 'reward.amount' : 'min_amount',
      },
    ];
  });
