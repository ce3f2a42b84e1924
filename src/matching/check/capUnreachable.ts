import type { ResolvedOptions } from '../../model/options.js';
import { capAtScale } from '../cashback.js';
import type { CompiledOffer } from '../offer.js';
import { type CheckedOffer, type OfferCheck, ref } from './CheckContext.js';
import { largestPayment, periodHolds, perPeriod } from './fundingLimits.js';
import type { OfferFinding } from './OfferFinding.js';

type Finding = Omit<OfferFinding, 'rule' | 'level' | 'offers'>;

/**
 * Why the cap's amount never limits a payment, if it never does: the budget holds the cap's
 * period and has no more (what a customer spent in it is part of what the budget spent), or
 * `count` payments of at most the largest payment add up to no more than it.
 */
function amountNeverLimits(c: CompiledOffer, options: ResolvedOptions): Finding | undefined {
  const cap = c.customerCap;
  if (cap?.amount === undefined) return undefined;
  const capAmount = capAtScale(cap.amount, options);
  if (capAmount.isZero()) return undefined;
  const head = `customer_cap.amount ${cap.amount.text} ${perPeriod(cap.period)} never limits a payment`;
  const budget = c.budget;
  if (
    budget?.amount !== undefined &&
    periodHolds(budget.period, cap.period) &&
    capAmount.gte(capAtScale(budget.amount, options))
  ) {
    return {
      message: `${head}: the budget of ${budget.amount.text} ${perPeriod(budget.period)}, shared by every customer, holds the cap's period and runs out no later`,
      path: 'customer_cap.amount',
    };
  }
  if (cap.count === undefined) return undefined;
  const largest = largestPayment(c, options, false);
  if (largest.value.isZero() || capAmount.lt(largest.value.times(cap.count))) return undefined;
  return {
    message: `${head}: its count of ${cap.count} payments of at most ${largest.value.toFixed(options.scale)} each (${largest.why}) add up to no more`,
    path: 'customer_cap.amount',
  };
}

/**
 * Why the cap's count is never reached, if it never is: every counted payment is at least one
 * unit of the last place, so a cap's amount (or a budget holding its period) of fewer units than
 * `count` runs out first.
 */
function countNeverReached(c: CompiledOffer, options: ResolvedOptions): Finding | undefined {
  const cap = c.customerCap;
  if (cap?.count === undefined) return undefined;
  const budget = c.budget;
  const bounds = [
    ...(cap.amount === undefined ? [] : [{ amount: cap.amount, what: "the cap's amount" }]),
    ...(budget?.amount !== undefined && periodHolds(budget.period, cap.period)
      ? [{ amount: budget.amount, what: `the budget ${perPeriod(budget.period)}` }]
      : []),
  ];
  for (const { amount, what } of bounds) {
    const units = capAtScale(amount, options).times(10 ** options.scale);
    if (units.isZero() || units.gte(cap.count)) continue;
    return {
      message: `customer_cap.count ${cap.count} ${perPeriod(cap.period)} is never reached: every payment is at least ${(10 ** -options.scale).toFixed(options.scale)}, and ${what}, ${amount.text}, runs out after ${units.toFixed()} at most`,
      path: 'customer_cap.count',
    };
  }
  return undefined;
}

function findingsOf(offer: CheckedOffer, options: ResolvedOptions): OfferFinding[] {
  const c = offer.compiled;
  if (c?.customerCap === undefined) return [];
  return [amountNeverLimits(c, options), countNeverReached(c, options)].flatMap((f) =>
    f === undefined
      ? []
      : [
          {
            rule: 'cap_unreachable' as const,
            level: 'warning' as const,
            offers: [ref(offer)],
            ...f,
          },
        ],
  );
}

/**
 * `cap_unreachable`: a part of the customer cap that can never act, proved from the offer's own
 * figures (docs/testing.md, `cashback check`): its amount never limits a payment (the budget
 * holds the cap's period and has no more, or `count` times the largest payment is no more), or
 * its count is never reached (the cap's amount, or a budget holding its period, has fewer units
 * of the last place than `count`). Payments after returns are current cashback, so returns
 * change none of it.
 */
export const capUnreachable: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) => findingsOf(offer, ctx.options));
