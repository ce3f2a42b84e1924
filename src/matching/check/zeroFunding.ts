import { capAtScale } from '../cashback.js';
import type { FundingLimit } from '../offer.js';
import { type OfferCheck, ref } from './CheckContext.js';
import { perPeriod } from './fundingLimits.js';

/**
 * `zero_funding`: a budget's or a customer cap's `amount` rounds down to 0 at the engine's scale,
 * so every purchase fails that check and gets `no_offer` (remainders are rounded down so that a
 * limit is never exceeded, docs/concepts.md, Funding controls).
 */
export const zeroFunding: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) => {
    const c = offer.compiled;
    if (c === undefined) return [];
    const limits: [string, FundingLimit | undefined][] = [
      ['customer_cap', c.customerCap],
      ['budget', c.budget],
    ];
    return limits.flatMap(([field, limit]) => {
      const amount = limit?.amount;
      if (limit === undefined || amount === undefined) return [];
      if (!capAtScale(amount, ctx.options).isZero()) return [];
      return [
        {
          rule: 'zero_funding' as const,
          level: 'error' as const,
          offers: [ref(offer)],
          message: `${field}.amount ${amount.text} ${perPeriod(limit.period)} rounds down to 0 at ${ctx.options.scale} decimal places: every purchase would fail the ${field} check (no_offer)`,
          path: `${field}.amount`,
        },
      ];
    });
  });
