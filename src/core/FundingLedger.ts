import {
  type Cashback,
  cashbackDecimal,
  cashbackOf,
  cashbackOfText,
  isZeroCashback,
} from '../matching/cashback.js';
import type { Spent, SpentLookup } from '../matching/funding.js';
import { periodStart } from '../matching/fundingPeriod.js';
import type { FundingPeriod } from '../matching/offer.js';
import { type CountedArithmetic, countedChange } from '../model/countedChange.js';
import type { ResolvedOptions } from '../model/options.js';
import type { ParsedTransaction } from '../model/parseTransaction.js';

/**
 * An offer as its counters read it: its id, and the period of its budget and of its customer cap
 * when it has them (docs/concepts.md, Funding controls).
 * @public
 */
export interface FundedOffer {
  /** Its id. */
  readonly offerId: number;
  /** Its budget, when it has one: the period its payments are counted in. */
  readonly budget?: { readonly period: FundingPeriod } | undefined;
  /** Its per-customer cap, when it has one: the period its payments are counted in. */
  readonly customerCap?: { readonly period: FundingPeriod } | undefined;
}

/** A payment of an offer with a budget or a cap: what its counters add. @public */
export interface FundedPayment {
  /** The offer that paid. */
  readonly offer: FundedOffer;
  /** The paid transaction. */
  readonly tx: ParsedTransaction;
  /** The cashback as paid. */
  readonly cashback: Cashback;
}

/**
 * One change of one counter on one day, as a ledger with a journal records it: what a store adds
 * to its per-day counters.
 * @public
 */
export interface CounterChange {
  /** The offer whose budget, or whose customer's cap, changed. */
  readonly offerId: number;
  /** The cap's customer; `undefined` for the offer's budget. */
  readonly customerId: string | undefined;
  /** The paid transaction's day number. */
  readonly day: number;
  /** The change of the sum of current cashback. */
  readonly amount: Cashback;
  /** The change of the number of payments above 0. */
  readonly count: number;
}

/** Nothing: what a new payment's cashback was before it. */
const ZERO: Cashback = { units: 0, decimal: undefined, value: 0 };

/** What one offer's budget and its customers' caps spent in the period starting on one day. */
interface PeriodSpent {
  budget: Spent | undefined;
  caps: Map<string, Spent> | undefined;
}

/**
 * The key of one counter in one period, for maps: an offer's budget (`customerId` undefined) or a
 * customer's cap of it.
 * @param offerId - the offer
 * @param start - the period's first day number
 * @param customerId - the customer of a cap
 * @returns a key no other counter and period has
 */
export function counterKey(offerId: number, start: number, customerId: string | undefined): string {
  return customerId === undefined ? `${offerId}/${start}` : `${offerId}/${start}/${customerId}`;
}

/**
 * What budgets and caps have spent, by offer, period and customer (docs/concepts.md, Funding
 * controls): the one owner of the counters. `decide` counts a batch's payments in a ledger over
 * what its state says was spent before the batch; the replay session keeps one for the whole
 * replay, which returns give back to; the backtest follows a chunk item by item with one; the
 * engine turns the journal of one into the changes its store adds. What a payment counts is the
 * rule of `countedChange`; which counters it counts in, `offer.budget` and `offer.customerCap`
 * in the periods holding its transaction's day.
 *
 * A ledger is in memory and grows with the counters it is given; a store persists counters of
 * its own (docs/stores.md, Funding counters).
 * @example
 * ```ts
 * const ledger = new FundingLedger(resolveOptions());
 * const d = decide(items, { ...state, spent: ledger.spent });
 * ledger.payAll(d.funded); // the next batch sees what this one paid
 * ```
 * @public
 */
export class FundingLedger {
  private readonly byOffer = new Map<number, Map<number, PeriodSpent>>();
  private readonly journal: CounterChange[] | undefined;
  private readonly arithmetic: CountedArithmetic<Cashback>;

  /**
   * @param options - scale
   * @param base - what was spent before this ledger's own changes (a store's held counters, a
   *   replay's): `spent` adds the two. Absent: nothing.
   * @param keepJournal - whether to record every change (see `changes`)
   */
  constructor(
    private readonly options: ResolvedOptions,
    private readonly base?: SpentLookup,
    keepJournal = false,
  ) {
    this.journal = keepJournal ? [] : undefined;
    this.arithmetic = {
      isZero: isZeroCashback,
      minus: (a, b) => this.sum(a, b, -1),
    };
  }

  /**
   * What a counter spent in a period, the base's and this ledger's together: `DecideState.spent`.
   * Maps by offer and period start, then by customer, so that a lookup (made for every funded
   * candidate of a transaction) builds no key (docs/benchmarks.md, Funding controls).
   */
  readonly spent: SpentLookup = (offerId, start, customerId) => {
    const base = this.base?.(offerId, start, customerId);
    const period = this.byOffer.get(offerId)?.get(start);
    const own = customerId === undefined ? period?.budget : period?.caps?.get(customerId);
    if (own === undefined) return base;
    if (base === undefined) return own;
    return { amount: this.sum(base.amount, own.amount, 1), count: base.count + own.count };
  };

  /**
   * Counts a payment in its offer's budget and its customer's cap.
   * @param offer - the offer that paid (nothing is counted for an offer with neither)
   * @param customerId - the paid customer
   * @param day - the transaction's day number
   * @param cashback - the cashback as paid
   */
  pay(offer: FundedOffer, customerId: string, day: number, cashback: Cashback): void {
    this.change(offer, customerId, day, ZERO, cashback);
  }

  /**
   * Counts the payments of a decided batch (`Decision.funded`), in order.
   * @param funded - the batch's payments of offers with a budget or a cap
   */
  payAll(funded: readonly FundedPayment[]): void {
    for (const p of funded) this.pay(p.offer, p.tx.customerId, p.tx.when.day, p.cashback);
  }

  /**
   * Gives back what a return took off a payment: its counters drop by the difference, and by
   * one payment when it falls to 0.
   * @param offer - the offer that paid
   * @param customerId - the paid customer
   * @param day - the transaction's day number
   * @param previous - the payment's cashback before the return, exact decimal text
   * @param cashback - after it
   */
  giveBack(
    offer: FundedOffer,
    customerId: string,
    day: number,
    previous: string,
    cashback: string,
  ): void {
    const o = this.options;
    this.change(offer, customerId, day, cashbackOfText(previous, o), cashbackOfText(cashback, o));
  }

  /**
   * Every change this ledger made, in order, one per counter and payment: for a ledger made with
   * `keepJournal`; empty otherwise.
   * @returns the journal
   */
  changes(): readonly CounterChange[] {
    return this.journal ?? [];
  }

  private change(
    offer: FundedOffer,
    customerId: string,
    day: number,
    before: Cashback,
    after: Cashback,
  ): void {
    const { amount, count } = countedChange(before, after, this.arithmetic);
    const { offerId, budget, customerCap } = offer;
    if (budget !== undefined) this.count(offerId, budget, undefined, day, amount, count);
    if (customerCap !== undefined) this.count(offerId, customerCap, customerId, day, amount, count);
  }

  /** Adds a change to one counter, in the period of `limit` holding `day`, and journals it. */
  private count(
    offerId: number,
    limit: { readonly period: FundingPeriod },
    customerId: string | undefined,
    day: number,
    amount: Cashback,
    count: number,
  ): void {
    this.add(offerId, periodStart(limit.period, day), customerId, amount, count);
    this.journal?.push({ offerId, customerId, day, amount, count });
  }

  private add(
    offerId: number,
    start: number,
    customerId: string | undefined,
    amount: Cashback,
    count: number,
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
      period.budget = this.plus(period.budget, amount, count);
      return;
    }
    if (period.caps === undefined) period.caps = new Map();
    period.caps.set(customerId, this.plus(period.caps.get(customerId), amount, count));
  }

  private plus(a: Spent | undefined, amount: Cashback, count: number): Spent {
    if (a === undefined) return { amount, count };
    return { amount: this.sum(a.amount, amount, 1), count: a.count + count };
  }

  /** `a + sign × b`, exact at `scale`: integer units while they are safe. */
  private sum(a: Cashback, b: Cashback, sign: 1 | -1): Cashback {
    const units = a.units + sign * b.units;
    if (Number.isSafeInteger(units)) {
      return { units, decimal: undefined, value: units / this.options.unit };
    }
    const scale = this.options.scale;
    const bd = cashbackDecimal(b, scale);
    const exact = cashbackDecimal(a, scale).plus(sign === 1 ? bd : bd.neg());
    return cashbackOf(exact, this.options);
  }
}
