import type { Cashback } from '../../matching/cashback.js';
import { cashbackDecimal } from '../../matching/cashback.js';
import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import { fundingPeriod, periodStart } from '../../matching/fundingPeriod.js';
import type { CompiledOffer, FundingPeriod } from '../../matching/offer.js';
import { formatDay } from '../../model/day.js';
import { ExactMoney, type MoneyValue } from '../../model/money.js';
import { counterKey } from '../FundingLedger.js';

/** One day of a budget's burn (docs/backtest.md, Budgets and caps). @public */
export interface BudgetDay {
  /** The transactions' day, `YYYY-MM-DD`. */
  readonly day: string;
  /** Cashback the offer paid on transactions of that day, as decided, with `scale` places. */
  readonly cashback: string;
  /** Cashback the offer paid in the period up to and including that day. */
  readonly cumulative: string;
}

/**
 * How one offer's budget was spent in one of its periods (docs/backtest.md, Budgets and caps):
 * the cashback its payments add up to, day by day as decided, and the day it ran out.
 * @public
 */
export interface BudgetBurn {
  /** The offer. */
  readonly offerId: number;
  /** The budget's amount, as the offer gives it. */
  readonly budget: string;
  /** The budget's period. */
  readonly period: FundingPeriod;
  /** The period's first day, `YYYY-MM-DD`; absent for the period `offer` (the whole offer). */
  readonly start?: string;
  /** The period's last day; absent for the period `offer`. */
  readonly end?: string;
  /** Cashback the offer paid in the period, as decided, with `scale` places. */
  readonly spent: string;
  /** By day of the paid transactions, in day order: the days the offer paid something. */
  readonly days: readonly BudgetDay[];
  /**
   * The first day on which a transaction that met every other condition of the offer found
   * nothing left of the budget (it failed the check `budget`), or the offer paid it partially
   * because of the budget; `null` when neither happened.
   */
  readonly ranOut: string | null;
}

/** What one period of one budget gathered. */
interface Period {
  readonly offer: CompiledOffer;
  readonly start: number;
  readonly byDay: Map<number, MoneyValue>;
  ranOut: number | undefined;
}

/** The burn of every budget of one offer set, as the backtest sees its chunks decided. */
export class BurnBook {
  private readonly periods = new Map<string, Period>();

  /**
   * @param offers - the set's compiled offers
   * @param scale - decimal places of amounts
   */
  constructor(
    private readonly offers: CompiledOfferSet,
    private readonly scale: number,
  ) {}

  /**
   * Counts a payment of an offer with a budget.
   * @param offer - the offer that paid
   * @param day - the transaction's day number
   * @param cashback - as paid
   */
  paid(offer: CompiledOffer, day: number, cashback: Cashback): void {
    const p = this.period(offer, day);
    if (p === undefined) return;
    const add = cashbackDecimal(cashback, this.scale);
    p.byDay.set(day, (p.byDay.get(day) ?? new ExactMoney(0)).plus(add));
  }

  /**
   * Whether the budget's period holding `day` has run out already.
   * @param offer - an offer with a budget
   * @param day - a day number
   * @returns `true` once `ranOut` was called for that period
   */
  hasRunOut(offer: CompiledOffer, day: number): boolean {
    return this.period(offer, day, false)?.ranOut !== undefined;
  }

  /**
   * Records that the budget ran out on `day`, unless its period ran out before.
   * @param offer - an offer with a budget
   * @param day - the transaction's day number
   */
  ranOut(offer: CompiledOffer, day: number): void {
    const p = this.period(offer, day);
    if (p !== undefined && p.ranOut === undefined) p.ranOut = day;
  }

  /**
   * The burns, by offer id then period: every offer with a budget for the whole offer, and the
   * periods of a periodic budget in which something was paid or it ran out.
   * @returns the burns
   */
  build(): BudgetBurn[] {
    const burns: BudgetBurn[] = [];
    for (const offer of this.offers.compiled) {
      const budget = offer.budget;
      if (budget === undefined) continue;
      if (budget.period === 'offer') this.period(offer, 0);
      const periods = [...this.periods.values()]
        .filter((p) => p.offer === offer)
        .sort((a, b) => a.start - b.start);
      for (const p of periods) burns.push(this.burnOf(p, budget.period));
    }
    return burns;
  }

  private burnOf(p: Period, period: FundingPeriod): BudgetBurn {
    let sum: MoneyValue = new ExactMoney(0);
    const days = [...p.byDay.entries()]
      .sort(([a], [b]) => a - b)
      .map(([day, cashback]) => {
        sum = sum.plus(cashback);
        return {
          day: formatDay(day),
          cashback: cashback.toFixed(this.scale),
          cumulative: sum.toFixed(this.scale),
        };
      });
    const bounds = period === 'offer' ? undefined : fundingPeriod(period, p.start);
    return {
      offerId: p.offer.offerId,
      budget: p.offer.budget?.amount?.text ?? '',
      period,
      ...(bounds === undefined ? {} : { start: bounds.from, end: bounds.to }),
      spent: sum.toFixed(this.scale),
      days,
      ranOut: p.ranOut === undefined ? null : formatDay(p.ranOut),
    };
  }

  /** The period of the offer's budget holding `day`, made when `create` and not there yet. */
  private period(offer: CompiledOffer, day: number, create = true): Period | undefined {
    const budget = offer.budget;
    if (budget === undefined) return undefined;
    const start = periodStart(budget.period, day);
    const key = counterKey(offer.offerId, start, undefined);
    let p = this.periods.get(key);
    if (p === undefined && create) {
      p = { offer, start, byDay: new Map(), ranOut: undefined };
      this.periods.set(key, p);
    }
    return p;
  }
}
