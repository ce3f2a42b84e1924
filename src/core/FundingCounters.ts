import type { Cashback } from '../matching/cashback.js';
import { cashbackOfText, eachCounter, givenBackBy, type SpentLookup } from '../matching/funding.js';
import type { CompiledOffer } from '../matching/offer.js';
import { SpentTable } from '../matching/SpentTable.js';
import type { ResolvedOptions } from '../model/options.js';
import type { FundedPayment } from './decide.js';

/**
 * What a replay's budgets and caps have spent, by counter and period (docs/replay.md, Funding
 * controls): payments add to them in processing order, and a return that lowers a payment gives
 * the difference back.
 */
export class FundingCounters {
  private readonly table = new SpentTable();

  /** @param options - scale */
  constructor(private readonly options: ResolvedOptions) {}

  /** What a counter spent in a period, as `DecideState.spent` asks it. */
  readonly spent: SpentLookup = (offerId, start, customerId) =>
    this.table.get(offerId, start, customerId);

  /**
   * Counts the payments of a decided chunk.
   * @param funded - its payments of funded offers (`Decision.funded`)
   */
  paid(funded: readonly FundedPayment[]): void {
    for (const p of funded) this.add(p.offer, p.tx.customerId, p.tx.when.day, p.cashback, 1);
  }

  /**
   * Gives back what a return took off a payment of a funded offer.
   * @param offer - the offer that paid
   * @param customerId - the paid customer
   * @param day - the transaction's day number
   * @param previous - the cashback before the return, exact text
   * @param cashback - after it
   */
  giveBack(
    offer: CompiledOffer,
    customerId: string,
    day: number,
    previous: string,
    cashback: string,
  ): void {
    const { amount, count } = givenBackBy(previous, cashback);
    this.add(offer, customerId, day, cashbackOfText(amount, this.options), count);
  }

  private add(
    offer: CompiledOffer,
    customerId: string,
    day: number,
    amount: Cashback,
    count: number,
  ): void {
    eachCounter(offer.budget, offer.customerCap, customerId, day, (start, c) => {
      this.table.add(offer.offerId, start, c, amount, count, this.options);
    });
  }
}
