import { type CountedArithmetic, countedChange } from '../../model/countedChange.js';
import { ExactMoney } from '../../model/money.js';
import type { FundingChange, FundingRange, FundingRecount, FundingTotal } from '../Store.js';

/** Exact decimals, as the counting rule needs them. */
const EXACT: CountedArithmetic<InstanceType<typeof ExactMoney>> = {
  isZero: (a) => a.isZero(),
  minus: (a, b) => a.minus(b),
};
const NONE = new ExactMoney(0);

/**
 * An exact decimal as a whole number of `10^-scale`: what the counters add and sum, exact at any
 * scale without decimal.js (a change is a plain decimal text with an optional minus sign).
 */
interface Scaled {
  readonly units: bigint;
  readonly scale: number;
}

/** A change's amount text as a scaled integer. */
function scaledOf(text: string): Scaled {
  const point = text.indexOf('.');
  if (point === -1) return { units: BigInt(text), scale: 0 };
  return {
    units: BigInt(text.slice(0, point) + text.slice(point + 1)),
    scale: text.length - point - 1,
  };
}

/** The exact sum of two scaled integers, at the larger scale. */
function plus(a: Scaled, b: Scaled): Scaled {
  if (a.scale === b.scale) return { units: a.units + b.units, scale: a.scale };
  const [low, high] = a.scale < b.scale ? [a, b] : [b, a];
  return {
    units: low.units * 10n ** BigInt(high.scale - low.scale) + high.units,
    scale: high.scale,
  };
}

/** The shortest plain decimal text of a scaled integer (`'0'`, `'12.3'`, `'-0.05'`). */
function textOf(a: Scaled): string {
  if (a.units === 0n) return '0';
  const sign = a.units < 0n ? '-' : '';
  const digits = (a.units < 0n ? -a.units : a.units).toString().padStart(a.scale + 1, '0');
  const whole = digits.slice(0, digits.length - a.scale);
  const fraction = digits.slice(digits.length - a.scale).replace(/0+$/, '');
  return fraction === '' ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

const ZERO: Scaled = { units: 0n, scale: 0 };

/** One counter on one day. */
interface DayCounter {
  amount: Scaled;
  count: number;
}

/**
 * A scope's total over the last range asked, kept current by the adds of days within it: a hold
 * of the same period again (every batch at a budget) reads it instead of summing the days.
 */
interface RangeTotal {
  readonly from: string;
  readonly to: string;
  amount: Scaled;
  count: number;
}

/** A scope's counters, by day `YYYY-MM-DD`. */
type Days = Map<string, DayCounter>;

/** What a funding range and change name: an offer's budget, or a customer's cap. */
interface Scope {
  readonly offer_id: number;
  readonly customer_id: string | null;
}

/**
 * The funding counters of a memory store (docs/stores.md, Funding counters): budgets by offer,
 * shared by every partner, and caps by partner, customer and offer; each a map of days. A counter
 * is one record under the store's bound. Sums are exact (decimal.js without rounding).
 */
export class MemoryFunding {
  private readonly budgets = new Map<number, Days>();
  private readonly caps = new Map<string, Map<string, Map<number, Days>>>();
  /** Per scope's days, its total over the last range asked (dropped with the days). */
  private readonly totals = new WeakMap<Days, RangeTotal>();

  /** The days of a scope, created when `create` is set. */
  private days(partner: string, scope: Scope, create: true): Days;
  private days(partner: string, scope: Scope, create: false): Days | undefined;
  private days(partner: string, scope: Scope, create: boolean): Days | undefined {
    let byOffer: Map<number, Days> | undefined = this.budgets;
    if (scope.customer_id !== null) {
      let byCustomer = this.caps.get(partner);
      if (byCustomer === undefined) {
        if (!create) return undefined;
        byCustomer = new Map();
        this.caps.set(partner, byCustomer);
      }
      byOffer = byCustomer.get(scope.customer_id);
      if (byOffer === undefined) {
        if (!create) return undefined;
        byOffer = new Map();
        byCustomer.set(scope.customer_id, byOffer);
      }
    }
    let days = byOffer.get(scope.offer_id);
    if (days === undefined && create) {
      days = new Map();
      byOffer.set(scope.offer_id, days);
    }
    return days;
  }

  /** The total of a range: its scope's counters from `from` to `to`, both included. */
  total(partner: string, range: FundingRange): FundingTotal {
    const days = this.days(partner, range, false);
    if (days === undefined) return { amount: '0', count: 0 };
    let total = this.totals.get(days);
    if (total === undefined || total.from !== range.from || total.to !== range.to) {
      total = { from: range.from, to: range.to, amount: ZERO, count: 0 };
      for (const [day, counter] of days) {
        if (day < range.from || day > range.to) continue;
        total.amount = plus(total.amount, counter.amount);
        total.count += counter.count;
      }
      this.totals.set(days, total);
    }
    return { amount: textOf(total.amount), count: total.count };
  }

  /** How many counters `changes` would create (a counter named twice counts once). */
  countNew(partner: string, changes: readonly FundingChange[]): number {
    const fresh = new Set<string>();
    for (const c of changes) {
      if (this.days(partner, c, false)?.has(c.day) === true) continue;
      fresh.add(JSON.stringify([c.customer_id, c.offer_id, c.day]));
    }
    return fresh.size;
  }

  /**
   * Adds `changes` to their counters, creating those never written.
   * @returns how many counters it created, and how to take the whole call back
   */
  add(
    partner: string,
    changes: readonly FundingChange[],
  ): { readonly created: number; readonly undo: () => void } {
    const before: (DayCounter | undefined)[] = [];
    const touched: [Days, string, DayCounter][] = [];
    let created = 0;
    for (const c of changes) {
      const days = this.days(partner, c, true);
      let counter = days.get(c.day);
      before.push(counter === undefined ? undefined : { ...counter });
      if (counter === undefined) {
        counter = { amount: ZERO, count: 0 };
        days.set(c.day, counter);
        created++;
      }
      const amount = scaledOf(c.amount);
      counter.amount = plus(counter.amount, amount);
      counter.count += c.count;
      const total = this.totals.get(days);
      if (total !== undefined && c.day >= total.from && c.day <= total.to) {
        total.amount = plus(total.amount, amount);
        total.count += c.count;
      }
      touched.push([days, c.day, counter]);
    }
    const undo = (): void => {
      for (let i = touched.length - 1; i >= 0; i--) {
        const [days, day, counter] = touched[i] as [Days, string, DayCounter];
        // Summed again on the next read: the days are as they were before the call.
        this.totals.delete(days);
        const old = before[i];
        if (old === undefined) days.delete(day);
        else Object.assign(counter, old);
      }
    };
    return { created, undo };
  }

  /**
   * Replaces the counters of `query`'s offers with what `payments` add up to (docs/stores.md,
   * Funding counters): budgets of `query.budgets`, and every partner's caps of `query.caps`.
   * @param payments - every partner's payments with their transaction's day and customer
   * @param query - the offers
   * @returns the change in the number of counters, and how to take the whole call back
   */
  recount(
    payments: Iterable<RecountedPayment>,
    query: FundingRecount,
  ): { readonly created: number; readonly undo: () => void } {
    const budgets = new Set(query.budgets);
    const caps = new Set(query.caps);
    const restore: (() => void)[] = [];
    let created = 0;
    const replace = (byOffer: Map<number, Days>, offerId: number): void => {
      const old = byOffer.get(offerId);
      created -= old?.size ?? 0;
      byOffer.delete(offerId);
      restore.push(() => {
        if (old === undefined) byOffer.delete(offerId);
        else byOffer.set(offerId, old);
      });
    };
    for (const id of budgets) replace(this.budgets, id);
    for (const byCustomer of this.caps.values()) {
      for (const byOffer of byCustomer.values()) {
        for (const id of caps) if (byOffer.has(id)) replace(byOffer, id);
      }
    }
    const changes: { partner: string; change: FundingChange }[] = [];
    for (const p of payments) {
      const { amount, count } = countedChange(NONE, p.amount, EXACT);
      if (count === 0 && amount.isZero()) continue;
      const base = { offer_id: p.offerId, day: p.day, amount: amount.toFixed(), count };
      if (budgets.has(p.offerId))
        changes.push({ partner: p.partner, change: { ...base, customer_id: null } });
      if (caps.has(p.offerId)) {
        changes.push({ partner: p.partner, change: { ...base, customer_id: p.customerId } });
      }
    }
    const adds = changes.map(({ partner, change }) => this.add(partner, [change]));
    for (const a of adds) created += a.created;
    const undo = (): void => {
      for (let i = adds.length - 1; i >= 0; i--) (adds[i] as { undo: () => void }).undo();
      for (let i = restore.length - 1; i >= 0; i--) (restore[i] as () => void)();
    };
    return { created, undo };
  }
}

/** A stored payment as `recount` reads it. */
export interface RecountedPayment {
  readonly partner: string;
  readonly customerId: string;
  readonly offerId: number;
  /** Its transaction's day, `YYYY-MM-DD`. */
  readonly day: string;
  /** Its current cashback. */
  readonly amount: InstanceType<typeof ExactMoney>;
}
