import type { FundedPayment } from '../core/decide.js';
import type { OfferSet } from '../matching/compileOffers.js';
import {
  cashbackOfText,
  eachCounter,
  periodEnd,
  type Spent,
  type SpentLookup,
  spentKey,
} from '../matching/funding.js';
import type { CompiledOffer } from '../matching/offer.js';
import { formatDay } from '../model/day.js';
import { ExactMoney } from '../model/money.js';
import type { ResolvedOptions } from '../model/options.js';
import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { FundingChange, FundingRange, FundingTotal } from '../store/Store.js';
import { cashbackText } from './seedShapes.js';

/** The counters a batch may spend from, each once, keyed as `DecideState.spent` asks them. */
export interface FundingRanges {
  readonly keys: readonly string[];
  readonly ranges: readonly FundingRange[];
}

/**
 * The counters a batch's transactions may spend from (docs/engine.md, Funding controls): for every
 * stored transaction, the budget and its customer's cap of each funded offer at its merchant that
 * is active on its day. Read and held inside the batch's unit of work.
 * @param offers - the offers the batch is decided with
 * @param accepted - the transactions it stores
 * @returns the counters and their periods, each once
 */
export function fundingRanges(
  offers: OfferSet,
  accepted: readonly ParsedTransaction[],
): FundingRanges {
  const byKey = new Map<string, FundingRange>();
  for (const tx of accepted) {
    const candidates = offers.byMerchant.get(tx.merchantKey);
    if (candidates === undefined) continue;
    const day = tx.when.day;
    for (const offer of candidates) {
      if (!offer.funded || !offer.active || day < offer.validFrom || day > offer.validTo) continue;
      eachCounter(offer.budget, offer.customerCap, tx.customerId, day, (start, c, period) => {
        const key = spentKey(offer.offerId, start, c);
        if (byKey.has(key)) return;
        byKey.set(key, {
          offer_id: offer.offerId,
          customer_id: c ?? null,
          from: formatDay(start),
          to: formatDay(periodEnd(period, start)),
        });
      });
    }
  }
  return { keys: [...byKey.keys()], ranges: [...byKey.values()] };
}

/**
 * `DecideState.spent` over the totals a store gave for `ranges`.
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
  return (offerId, start, customerId) => byKey.get(spentKey(offerId, start, customerId));
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
  const before = new ExactMoney(previous);
  const after = new ExactMoney(cashback);
  const count = after.isZero() && !before.isZero() ? -1 : 0;
  counterChanges(offer, customerId, day, after.minus(before).toFixed(), count, out);
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
