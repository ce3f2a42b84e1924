import type { FundedPayment } from '../core/decide.js';
import type { OfferSet } from '../matching/compileOffers.js';
import {
  cashbackOfText,
  eachCounter,
  givenBackBy,
  periodEnd,
  type Spent,
  type SpentLookup,
  spentKey,
} from '../matching/funding.js';
import type { CompiledOffer, FundingLimit } from '../matching/offer.js';
import { formatDay } from '../model/day.js';
import type { ResolvedOptions } from '../model/options.js';
import type { FundingChange, FundingRange, FundingTotal } from '../store/Store.js';
import { cashbackText } from './seedShapes.js';

/** The counters a batch may spend from, each once, keyed as `DecideState.spent` asks them. */
export interface FundingRanges {
  readonly keys: readonly string[];
  readonly ranges: readonly FundingRange[];
}

/**
 * The counters a batch reads (docs/engine.md, Budgets and caps racing), recorded while it is
 * decided a first time with `lookup` as `DecideState.spent` (nothing spent): `decide` asks for the
 * cap and the budget of each funded offer that passed every other check, and that set does not
 * depend on what was spent, so the decision on the held counters reads no other. Those counters
 * are then read and held inside the batch's unit of work.
 */
export class FundingReads {
  private readonly byKey = new Map<string, { offerId: number; start: number; customer?: string }>();

  /** A `DecideState.spent` that records what it is asked and answers that nothing was spent. */
  readonly lookup: SpentLookup = (offerId, start, customerId) => {
    const key = spentKey(offerId, start, customerId);
    if (!this.byKey.has(key)) {
      this.byKey.set(
        key,
        customerId === undefined ? { offerId, start } : { offerId, start, customer: customerId },
      );
    }
    return undefined;
  };

  /**
   * The counters recorded, as ranges of days of their periods.
   * @param offers - the offers the batch was decided with
   * @returns the counters, each once
   */
  ranges(offers: OfferSet): FundingRanges {
    if (this.byKey.size === 0) return { keys: [], ranges: [] };
    const byId = new Map(offers.offers.map((o) => [o.offerId, o]));
    const ranges: FundingRange[] = [];
    for (const { offerId, start, customer } of this.byKey.values()) {
      const offer = byId.get(offerId) as CompiledOffer;
      const limit = (customer === undefined ? offer.budget : offer.customerCap) as FundingLimit;
      ranges.push({
        offer_id: offerId,
        customer_id: customer ?? null,
        from: formatDay(start),
        to: formatDay(periodEnd(limit.period, start)),
      });
    }
    return { keys: [...this.byKey.keys()], ranges };
  }
}

/**
 * `DecideState.spent` over the totals a store gave for `ranges`; it throws when asked for a counter
 * outside them.
 * @param ranges - what was read
 * @param totals - the store's totals, one per range, in order
 * @param options - scale
 * @returns the lookup
 */
export function spentFrom(
  ranges: FundingRanges,
  totals: readonly FundingTotal[],
  options: ResolvedOptions,
): SpentLookup {
  if (totals.length !== ranges.keys.length) {
    throw new Error(
      `the store gave ${totals.length} funding totals for ${ranges.keys.length} ranges`,
    );
  }
  const byKey = new Map<string, Spent>();
  ranges.keys.forEach((key, i) => {
    const t = totals[i] as FundingTotal;
    byKey.set(key, { amount: cashbackOfText(t.amount, options), count: t.count });
  });
  return (offerId, start, customerId) => {
    const spent = byKey.get(spentKey(offerId, start, customerId));
    // Read without being held, a counter could be spent by a racing unit: never decide on it.
    if (spent === undefined) {
      throw new Error(
        `the batch read funding counter ${spentKey(offerId, start, customerId)}, which it did not hold`,
      );
    }
    return spent;
  };
}

/**
 * What a batch's payments of funded offers add to the counters, per counter and day.
 * @param funded - `Decision.funded`
 * @param scale - decimal places of cashback
 * @returns the changes
 */
export function paidChanges(funded: readonly FundedPayment[], scale: number): FundingChange[] {
  const changes: FundingChange[] = [];
  for (const { offer, tx, cashback } of funded) {
    const amount = cashbackText(cashback, scale);
    counterChanges(offer, tx.customerId, tx.when.day, amount, 1, changes);
  }
  return changes;
}

/**
 * What a return that lowered a payment of a funded offer gives back to its counters.
 * @param offer - the offer that paid
 * @param customerId - the paid customer
 * @param day - the transaction's day number
 * @param previous - the cashback before, exact text
 * @param cashback - after, exact text
 * @param out - where the changes go
 */
export function givenBack(
  offer: CompiledOffer,
  customerId: string,
  day: number,
  previous: string,
  cashback: string,
  out: FundingChange[],
): void {
  const { amount, count } = givenBackBy(previous, cashback);
  counterChanges(offer, customerId, day, amount, count, out);
}

function counterChanges(
  offer: CompiledOffer,
  customerId: string,
  day: number,
  amount: string,
  count: number,
  out: FundingChange[],
): void {
  const dayText = formatDay(day);
  eachCounter(offer.budget, offer.customerCap, customerId, day, (_start, c) => {
    out.push({ offer_id: offer.offerId, customer_id: c ?? null, day: dayText, amount, count });
  });
}
