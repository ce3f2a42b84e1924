import { type ExactAmount, ExactMoney } from '../model/money.js';
import type { ResolvedOptions } from '../model/options.js';
import {
  type Cashback,
  capAtScale,
  capUnits,
  cashbackDecimal,
  cashbackOf,
  isZeroCashback,
} from './cashback.js';

// What is left of a budget or a cap for one transaction (docs/concepts.md, Funding controls). What
// was spent is kept by the funding ledger (core/FundingLedger.ts), periods in fundingPeriod.ts.

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
 * that starts on day `start` (see `fundingPeriod`); `undefined` when nothing.
 * @public
 */
export type SpentLookup = (
  offerId: number,
  start: number,
  customerId: string | undefined,
) => Spent | undefined;

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

/** `true` when nothing is left: used by the checks `customer_cap` and `budget`. */
export const isNothingLeft = isZeroCashback;
