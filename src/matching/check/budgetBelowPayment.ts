import { capAtScale } from '../cashback.js';
import { type OfferCheck, ref } from './CheckContext.js';
import { largestPayment, perPeriod } from './fundingLimits.js';

/**
 * `budget_below_payment`: the budget, rounded down to scale, is below the largest single payment
 * the offer can make (its cashback on the largest amount the engine accepts, bounded by
 * `max_cashback` and the customer cap's amount), so one purchase can take all of it and the
 * purchase that reaches it is paid in part (docs/concepts.md, Funding controls). A budget that
 * rounds down to 0 is `zero_funding` instead.
 */
export const budgetBelowPayment: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) => {
    const c = offer.compiled;
    const budget = c?.budget;
    if (c === undefined || budget?.amount === undefined) return [];
    const available = capAtScale(budget.amount, ctx.options);
    const largest = largestPayment(c, ctx.options, true);
    if (available.isZero() || available.gte(largest.value)) return [];
    return [
      {
        rule: 'budget_below_payment' as const,
        level: 'warning' as const,
        offers: [ref(offer)],
        message: `budget ${budget.amount.text} ${perPeriod(budget.period)} is below the largest single payment ${largest.value.toFixed(ctx.options.scale)} (${largest.why}): one purchase can spend all of it, and the payment that reaches it is paid in part`,
        path: 'budget.amount',
      },
    ];
  });
