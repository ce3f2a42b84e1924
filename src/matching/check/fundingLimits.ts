import { type ExactAmount, type MoneyValue, parseAmount } from '../../model/money.js';
import type { ResolvedOptions } from '../../model/options.js';
import { capAtScale, cashbackDecimal, computeCashback } from '../cashback.js';
import type { CompiledOffer, FundingPeriod } from '../offer.js';

/** The largest transaction amount the engine accepts (docs/concepts.md, Input rules). */
const LARGEST_AMOUNT = parseAmount('1000000000000') as ExactAmount;

/** The largest single payment of an offer, and where that bound comes from. */
export interface LargestPayment {
  /** At `scale` places. */
  readonly value: MoneyValue;
  /** The bound, for people: `max_cashback 5`, `customer_cap.amount 3`, … */
  readonly why: string;
}

/**
 * The most one payment of `offer` can be before its budget: its cashback on the largest amount
 * the engine accepts (so `max_cashback` at scale when it has one), and, with `withCap`, no more
 * than its customer cap's amount rounded down to scale (docs/concepts.md, Funding controls).
 * Rounding keeps order, so no smaller amount pays more.
 * @param offer - the offer
 * @param options - scale and rounding
 * @param withCap - whether the cap's amount bounds it too
 * @returns the largest payment and its bound
 */
export function largestPayment(
  offer: CompiledOffer,
  options: ResolvedOptions,
  withCap: boolean,
): LargestPayment {
  let value = cashbackDecimal(computeCashback(LARGEST_AMOUNT, offer, options), options.scale);
  let why =
    offer.maxCashback !== undefined && capAtScale(offer.maxCashback, options).lte(value)
      ? `max_cashback ${offer.maxCashback.text}`
      : `discount ${offer.discount.text}% of the largest amount ${LARGEST_AMOUNT.text}`;
  const capAmount = offer.customerCap?.amount;
  if (withCap && capAmount !== undefined && capAtScale(capAmount, options).lt(value)) {
    value = capAtScale(capAmount, options);
    why = `customer_cap.amount ${capAmount.text}`;
  }
  return { value, why };
}

/**
 * Whether every period `inner` of a day lies inside the period `outer` of that day: the whole
 * offer holds every period, any period holds a day, and each period holds itself (a month does
 * not hold an ISO week, nor a week a month).
 * @param outer - the larger period
 * @param inner - the smaller one
 * @returns `true` when `outer` holds `inner`
 */
export function periodHolds(outer: FundingPeriod, inner: FundingPeriod): boolean {
  return outer === 'offer' || outer === inner || inner === 'day';
}

/** A period as a finding says it: `for the whole offer`, `per day`, … */
export function perPeriod(period: FundingPeriod): string {
  return period === 'offer' ? 'for the whole offer' : `per ${period}`;
}
