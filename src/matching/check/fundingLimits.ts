import { type ExactAmount, type MoneyValue, parseAmount } from '../../model/money.js';
import type { ResolvedOptions } from '../../model/options.js';
import { capAtScale, cashbackDecimal, computeCashback } from '../cashback.js';
import type { CompiledOffer, FundingPeriod } from '../offer.js';
import { tierOf } from '../rewardAmount.js';
import { rewardText } from './rewardText.js';

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
 * The amounts where an offer's cashback is largest: the largest amount the engine accepts and,
 * for `whole` tiers (whose rate may drop from one tier to the next), the start of each next tier,
 * which bounds what the tier before it pays.
 */
function peaks(offer: CompiledOffer): { amount: ExactAmount; rateOf: ExactAmount | undefined }[] {
  const reward = offer.reward;
  const top = { amount: LARGEST_AMOUNT, rateOf: undefined };
  if (reward.type !== 'tiers' || reward.mode !== 'whole') return [top];
  return [
    top,
    ...reward.tiers.slice(1).map((t, i) => ({
      amount: t.from,
      rateOf: (reward.tiers[i] ?? tierOf(reward.tiers, t.from)).rate,
    })),
  ];
}

/**
 * The most one payment of `offer` can be before its budget: its cashback on the largest amount
 * the engine accepts (so `max_cashback` at scale when it has one; for `whole` tiers, also each
 * tier's rate up to where the next tier starts), and, with `withCap`, no more than its customer
 * cap's amount rounded down to scale (docs/concepts.md, Funding controls). Rounding keeps order,
 * so no smaller amount pays more.
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
  let value: MoneyValue | undefined;
  let at = LARGEST_AMOUNT;
  for (const peak of peaks(offer)) {
    const priced: CompiledOffer =
      peak.rateOf === undefined
        ? offer
        : { ...offer, reward: { type: 'percent', rate: peak.rateOf, maxEligible: undefined } };
    const v = cashbackDecimal(computeCashback(peak.amount, priced, options), options.scale);
    if (value === undefined || v.gt(value)) {
      value = v;
      at = peak.amount;
    }
  }
  let why =
    offer.maxCashback !== undefined &&
    capAtScale(offer.maxCashback, options).lte(value as MoneyValue)
      ? `max_cashback ${offer.maxCashback.text}`
      : at === LARGEST_AMOUNT
        ? `${rewardText(offer.reward)} of the largest amount ${LARGEST_AMOUNT.text}`
        : `${rewardText(offer.reward)} up to ${at.text}`;
  const capAmount = offer.customerCap?.amount;
  if (
    withCap &&
    capAmount !== undefined &&
    capAtScale(capAmount, options).lt(value as MoneyValue)
  ) {
    value = capAtScale(capAmount, options);
    why = `customer_cap.amount ${capAmount.text}`;
  }
  return { value: value as MoneyValue, why };
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
