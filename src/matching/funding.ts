import { civilDate, dayNumberOf } from '../model/day.js';
import { type ExactAmount, ExactMoney, type MoneyValue } from '../model/money.js';
import type { ResolvedOptions } from '../model/options.js';
import {
  type Cashback,
  capAtScale,
  capUnits,
  cashbackDecimal,
  cashbackOf,
  isZeroCashback,
} from './cashback.js';
import type { FundingLimit, FundingPeriod } from './offer.js';

/**
 * What a budget or a cap has spent in one period: the current cashback of its payments (after
 * returns) and how many of them are above 0.
 * @public
 */
export interface Spent {
  /** The sum of their current cashback, at `scale` places. */
  readonly amount: Cashback;
  /** How many payments above 0. */
  readonly count: number;
}

/**
 * What a budget (`customerId` undefined) or a customer's cap of an offer has spent in the period
 * that starts on day `start`; `undefined` when nothing.
 */
export type SpentLookup = (
  offerId: number,
  start: number,
  customerId: string | undefined,
) => Spent | undefined;

/** The first and last day numbers any date-time can have (0001-01-01 and 9999-12-31). */
const FIRST_DAY = dayNumberOf(1, 1, 1);
const LAST_DAY = dayNumberOf(9999, 12, 31);

/**
 * The first day of the period holding `day`. An offer-long period starts on the first day a
 * date-time can have, whatever the offer's valid dates (they may change on a reload).
 * @param period - the period
 * @param day - a day number
 * @returns the day number its period starts on
 */
export function periodStart(period: FundingPeriod, day: number): number {
  switch (period) {
    case 'day':
      return day;
    case 'week':
      // Day 0 (1970-01-01) was a Thursday: Monday is 3 days before a day ≡ 0 (mod 7).
      return day - ((((day + 3) % 7) + 7) % 7);
    case 'month':
      // The first of the month is day-of-month − 1 days before.
      return day - civilDate(day)[2] + 1;
    default:
      return FIRST_DAY;
  }
}

/**
 * The last day of the period that starts on `start`.
 * @param period - the period
 * @param start - a day number `periodStart` gave
 * @returns its last day number
 */
export function periodEnd(period: FundingPeriod, start: number): number {
  switch (period) {
    case 'day':
      return start;
    case 'week':
      return start + 6;
    case 'month': {
      const [year, month] = civilDate(start);
      return month === 12 ? dayNumberOf(year + 1, 1, 1) - 1 : dayNumberOf(year, month + 1, 1) - 1;
    }
    default:
      return LAST_DAY;
  }
}

/** Nothing spent. */
const NONE_UNITS: Cashback = { units: 0, decimal: undefined, value: 0 };

/**
 * What is left of `limit` after `spent`, rounded down to `scale` places, never below 0.
 * @param limit - a budget's or a cap's amount
 * @param spent - what it spent in the period
 * @param options - scale
 * @returns the remainder
 */
export function remainder(
  limit: ExactAmount,
  spent: Cashback | undefined,
  options: ResolvedOptions,
): Cashback {
  const s = spent ?? NONE_UNITS;
  const l = capUnits(limit, options.scale);
  if (Number.isSafeInteger(l) && Number.isSafeInteger(s.units)) {
    const units = l > s.units ? l - s.units : 0;
    return { units, decimal: undefined, value: units / options.unit };
  }
  const left = capAtScale(limit, options).minus(cashbackDecimal(s, options.scale));
  return cashbackOf(left.gt(0) ? left : new ExactMoney(0), options);
}

/**
 * Adds an amount to a sum at the same scale.
 * @param a - a sum
 * @param b - what is added (may be negative)
 * @param options - scale
 * @returns the exact sum
 */
function addCashback(a: Cashback, b: Cashback, options: ResolvedOptions): Cashback {
  const units = a.units + b.units;
  if (Number.isSafeInteger(units))
    return { units, decimal: undefined, value: units / options.unit };
  const sum: MoneyValue = cashbackDecimal(a, options.scale).plus(cashbackDecimal(b, options.scale));
  return cashbackOf(sum, options);
}

/**
 * What a return that lowers a payment from `previous` to `cashback` gives back to the payment's
 * counters (docs/concepts.md, Funding controls): the difference, negative, and one payment fewer
 * when it falls to 0 (a payment at 0 does not count).
 * @param previous - the cashback before, exact text
 * @param cashback - after, exact text
 * @returns the signed amount, exact text, and the change of the count
 */
export function givenBackBy(
  previous: string,
  cashback: string,
): { readonly amount: string; readonly count: number } {
  const before = new ExactMoney(previous);
  const after = new ExactMoney(cashback);
  const count = after.isZero() && !before.isZero() ? -1 : 0;
  return { amount: after.minus(before).toFixed(), count };
}

/** An exact decimal text as a cashback at `scale` (it has at most `scale` places). */
export function cashbackOfText(text: string, options: ResolvedOptions): Cashback {
  return cashbackOf(new ExactMoney(text), options);
}

/** `true` when nothing is left: used by the checks `customer_cap` and `budget`. */
export const isNothingLeft = isZeroCashback;

/**
 * The key of one counter in one period, for maps: an offer's budget (`customerId` undefined) or a
 * customer's cap of it.
 * @param offerId - the offer
 * @param start - the period's first day number
 * @param customerId - the customer of a cap
 * @returns a key no other counter and period has
 */
export function spentKey(offerId: number, start: number, customerId: string | undefined): string {
  return customerId === undefined ? `${offerId}/${start}` : `${offerId}/${start}/${customerId}`;
}

/**
 * Adds to what a counter spent.
 * @param a - what it spent, if anything
 * @param amount - the cashback added (negative when a return gives back)
 * @param count - payments added
 * @param options - scale
 * @returns the new total
 */
export function addSpent(
  a: Spent | undefined,
  amount: Cashback,
  count: number,
  options: ResolvedOptions,
): Spent {
  if (a === undefined) return { amount, count };
  return { amount: addCashback(a.amount, amount, options), count: a.count + count };
}

/**
 * Calls `fn` for each counter a payment of `offer` on `day` counts in: its budget (with
 * `customerId` undefined), then its customer's cap, each with the period holding `day`.
 * @param budget - the offer's budget, if any
 * @param cap - the offer's per-customer cap, if any
 * @param customerId - the paid customer
 * @param day - the transaction's day number
 * @param fn - called with the period's first day, the cap's customer and the period
 */
export function eachCounter(
  budget: FundingLimit | undefined,
  cap: FundingLimit | undefined,
  customerId: string,
  day: number,
  fn: (start: number, customerId: string | undefined, period: FundingPeriod) => void,
): void {
  if (budget !== undefined) fn(periodStart(budget.period, day), undefined, budget.period);
  if (cap !== undefined) fn(periodStart(cap.period, day), customerId, cap.period);
}
