import { isBefore, type WallClock } from '../model/dateTime.js';
import type { ExactAmount } from '../model/money.js';
import { ExactMoney } from '../model/money.js';
import type { HistoryFacts } from '../rules/index.js';

/**
 * One earlier purchase of a customer at a merchant: what audience checks and `history` facts read.
 * @public
 */
export interface Purchase {
  /** Wall-clock seconds (`WallClock.seconds`). */
  readonly seconds: number;
  /** Nanoseconds within the second (`WallClock.nanos`). */
  readonly nanos: number;
  /** Day number. */
  readonly day: number;
  /** Amount. */
  readonly amount: ExactAmount;
}

/**
 * The purchases inside an offer's lookback: strictly before `when`, on a day at most
 * `lookbackDays` days before `day` (docs/concepts.md, Eligibility).
 */
function inWindow(p: Purchase, when: WallClock, lookbackDays: number): boolean {
  return p.day >= when.day - lookbackDays && isBefore(p.seconds, p.nanos, when);
}

/** `true` when at least one purchase lies in the window. */
export function hasEarlierPurchase(
  purchases: readonly Purchase[] | undefined,
  when: WallClock,
  lookbackDays: number,
): boolean {
  if (purchases === undefined) return false;
  for (const p of purchases) if (inWindow(p, when, lookbackDays)) return true;
  return false;
}

/** Aggregates over the purchases in the window, as the `history` fact. */
export function historyFacts(
  purchases: readonly Purchase[] | undefined,
  when: WallClock,
  lookbackDays: number,
): HistoryFacts {
  let count = 0;
  let spend = new ExactMoney(0);
  let last = Number.NEGATIVE_INFINITY;
  if (purchases !== undefined) {
    for (const p of purchases) {
      if (!inWindow(p, when, lookbackDays)) continue;
      count++;
      spend = spend.plus(p.amount.text);
      if (p.day > last) last = p.day;
    }
  }
  return {
    merchant_purchases: count,
    merchant_spend: spend.toNumber(),
    days_since_last_merchant_purchase: count === 0 ? undefined : when.day - last,
  };
}
