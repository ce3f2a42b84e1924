import { type CounterChange, counterKey, FundingLedger } from '../core/FundingLedger.js';
import { cashbackOfText } from '../matching/cashback.js';
import type { CompiledOfferSet } from '../matching/compileOffers.js';
import type { Spent, SpentLookup } from '../matching/funding.js';
import { fundingPeriod } from '../matching/fundingPeriod.js';
import type { CompiledOffer, FundingLimit } from '../matching/offer.js';
import { formatDay } from '../model/day.js';
import type { ResolvedOptions } from '../model/options.js';
import type { FundingChange, FundingRange, FundingTotal } from '../store/Store.js';
import { cashbackText } from './seedShapes.js';

// The engine's side of the funding ledger (docs/engine.md, Budgets and caps racing): which
// counters a batch reads, the ledger's base over what the store held of them, and the ledger's
// journal as the changes the store adds. What the counters count is the ledger's alone.

/** The counters a batch may spend from, each once, keyed as `DecideState.spent` asks them. */
export interface FundingRanges {
  readonly keys: readonly string[];
  readonly ranges: readonly FundingRange[];
  /** The keys of the budgets among them (what `BudgetGate` lets through one at a time). */
  readonly budgets: readonly string[];
}

/**
 * The counters a batch reads, recorded while it is decided a first time with `lookup` as
 * `DecideState.spent` (nothing spent): `decide` asks for the cap and the budget of each funded
 * offer that passed every other check, and that set does not depend on what was spent, so the
 * decision on the held counters reads no other. Those counters are then read and held inside the
 * batch's unit of work.
 */
export class FundingReads {
  private readonly byKey = new Map<string, { offerId: number; start: number; customer?: string }>();

  /** A `DecideState.spent` that records what it is asked and answers that nothing was spent. */
  readonly lookup: SpentLookup = (offerId, start, customerId) => {
    const key = counterKey(offerId, start, customerId);
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
  ranges(offers: CompiledOfferSet): FundingRanges {
    if (this.byKey.size === 0) return { keys: [], ranges: [], budgets: [] };
    const byId = new Map(offers.compiled.map((o) => [o.offerId, o]));
    const ranges: FundingRange[] = [];
    const budgets: string[] = [];
    for (const [key, { offerId, start, customer }] of this.byKey) {
      if (customer === undefined) budgets.push(key);
      const offer = byId.get(offerId) as CompiledOffer;
      const limit = (customer === undefined ? offer.budget : offer.customerCap) as FundingLimit;
      const { from, to } = fundingPeriod(limit.period, start);
      ranges.push({ offer_id: offerId, customer_id: customer ?? null, from, to });
    }
    return { keys: [...this.byKey.keys()], ranges, budgets };
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
    const spent = byKey.get(counterKey(offerId, start, customerId));
    // Read without being held, a counter could be spent by a racing unit: never decide on it.
    if (spent === undefined) {
      throw new Error(
        `the batch read funding counter ${counterKey(offerId, start, customerId)}, which it did not hold`,
      );
    }
    return spent;
  };
}

/**
 * A ledger that journals its changes, for a unit of work to add to the store.
 * @param options - scale
 * @returns the ledger
 */
export function journalingLedger(options: ResolvedOptions): FundingLedger {
  return new FundingLedger(options, undefined, true);
}

/**
 * A ledger's journal as the changes a store adds to its per-day counters.
 * @param ledger - a ledger made by `journalingLedger`
 * @param scale - decimal places of cashback
 * @returns the changes, in the journal's order
 */
export function storeChanges(ledger: FundingLedger, scale: number): FundingChange[] {
  return ledger.changes().map((c: CounterChange) => ({
    offer_id: c.offerId,
    customer_id: c.customerId ?? null,
    day: formatDay(c.day),
    amount: cashbackText(c.amount, scale),
    count: c.count,
  }));
}
