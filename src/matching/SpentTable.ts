import type { ResolvedOptions } from '../model/options.js';
import type { Cashback } from './cashback.js';
import { addSpent, type Spent } from './funding.js';

/** What one offer's budget and its customers' caps spent in the period starting on one day. */
interface PeriodSpent {
  budget: Spent | undefined;
  caps: Map<string, Spent> | undefined;
}

/**
 * What budgets and caps spent, by offer, period and customer: the counters of a replay and a
 * batch's own spending. Maps by offer id and period start, then by customer id, so that a lookup,
 * made for every funded candidate of a transaction, builds no key (docs/benchmarks.md, Funding
 * controls).
 */
export class SpentTable {
  private readonly byOffer = new Map<number, Map<number, PeriodSpent>>();

  /**
   * What an offer's budget (`customerId` undefined) or a customer's cap of it spent in the period
   * starting on day number `start`, as `DecideState.spent` asks it.
   * @param offerId - the offer
   * @param start - the period's first day number
   * @param customerId - the customer of a cap
   * @returns what it spent, `undefined` when nothing was added
   */
  get(offerId: number, start: number, customerId: string | undefined): Spent | undefined {
    const period = this.byOffer.get(offerId)?.get(start);
    if (period === undefined) return undefined;
    return customerId === undefined ? period.budget : period.caps?.get(customerId);
  }

  /**
   * Adds to what a counter spent in a period.
   * @param offerId - the offer
   * @param start - the period's first day number
   * @param customerId - the customer of a cap, `undefined` for the budget
   * @param amount - the cashback added (negative when a return gives back)
   * @param count - payments added
   * @param options - scale
   */
  add(
    offerId: number,
    start: number,
    customerId: string | undefined,
    amount: Cashback,
    count: number,
    options: ResolvedOptions,
  ): void {
    let periods = this.byOffer.get(offerId);
    if (periods === undefined) {
      periods = new Map();
      this.byOffer.set(offerId, periods);
    }
    let period = periods.get(start);
    if (period === undefined) {
      period = { budget: undefined, caps: undefined };
      periods.set(start, period);
    }
    if (customerId === undefined) {
      period.budget = addSpent(period.budget, amount, count, options);
      return;
    }
    if (period.caps === undefined) period.caps = new Map();
    period.caps.set(customerId, addSpent(period.caps.get(customerId), amount, count, options));
  }
}
