import { PurchaseLists } from '../core/PurchaseLists.js';
import type { CompiledOfferSet } from '../matching/compileOffers.js';
import { isBefore, type WallClock } from '../model/dateTime.js';
import { formatDay } from '../model/day.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../model/parseTransaction.js';
import type { TransactionRecord } from '../store/records.js';
import type { PurchaseQuery, StoreSession } from '../store/Store.js';
import type { EngineContext } from './EngineContext.js';

/** What of a customer's purchases at a merchant can be history for a batch's items there. */
interface PairBound {
  /** The earliest such item's day minus the longest lookback: older purchases never count. */
  fromDay: number;
  /** The latest such item's time: history is strictly before a transaction, later ones never count. */
  latest: WallClock;
}

/**
 * The lookback window a batch was decided on: which purchases it read, and how many of them could
 * be history for its items. `checkLookback` reads the same window again at commit.
 */
export interface Lookback {
  readonly query: PurchaseQuery;
  /** By `customerId + '\u0000' + merchantKey`, the bounds of each pair in `query`. */
  readonly bounds: ReadonlyMap<string, PairBound>;
  /** Merchant keys whose offers read history: the batch's own purchases are at these. */
  readonly historyKeys: ReadonlySet<string>;
  /** How many purchases the read returned that could be history for the batch. */
  readonly read: number;
}

/** The window of a batch: its pairs and their bounds, or `undefined` when it reads no history. */
function windowOf(
  items: readonly ParseResult<ParsedTransaction>[],
  customers: ReadonlyMap<string, ParsedCustomer>,
  offers: CompiledOfferSet,
): { query: PurchaseQuery; bounds: Map<string, PairBound> } | undefined {
  const pairs: { customerId: string; merchantKey: string }[] = [];
  const bounds = new Map<string, PairBound>();
  let firstDay = Number.POSITIVE_INFINITY;
  for (const item of items) {
    if (!item.ok) continue;
    const tx = item.value;
    if (!offers.historyKeys.has(tx.merchantKey) || !customers.has(tx.customerId)) continue;
    const key = `${tx.customerId}\u0000${tx.merchantKey}`;
    const bound = bounds.get(key);
    if (bound === undefined) {
      bounds.set(key, { fromDay: tx.when.day, latest: tx.when });
      pairs.push({ customerId: tx.customerId, merchantKey: tx.merchantKey });
    } else {
      if (tx.when.day < bound.fromDay) bound.fromDay = tx.when.day;
      if (isBefore(bound.latest.seconds, bound.latest.nanos, tx.when)) bound.latest = tx.when;
    }
    if (tx.when.day < firstDay) firstDay = tx.when.day;
  }
  if (pairs.length === 0) return undefined;
  for (const bound of bounds.values()) bound.fromDay -= offers.maxLookbackDays;
  return { query: { pairs, fromDay: formatDay(firstDay - offers.maxLookbackDays) }, bounds };
}

/**
 * How many of `records` could be history for the batch: at one of its pairs, within the pair's
 * bounds, and not one of `own` (the batch's own transactions).
 */
function countHistory(
  ctx: EngineContext,
  records: readonly TransactionRecord[],
  bounds: ReadonlyMap<string, PairBound>,
  own: ReadonlySet<string> | undefined,
): number {
  let n = 0;
  for (const r of records) {
    if (own?.has(r.transaction_id)) continue;
    const bound = bounds.get(`${r.customer_id}\u0000${r.merchant_key}`);
    if (bound === undefined) continue;
    const p = ctx.purchases.get(r);
    if (p.day >= bound.fromDay && isBefore(p.seconds, p.nanos, bound.latest)) n++;
  }
  return n;
}

/**
 * Reads the purchases a batch's lookbacks need: for the pairs of a known customer and a merchant
 * whose offers read history, from the earliest such item's day minus the longest lookback. One
 * store call, none when no item needs history.
 * @returns the purchases by customer and merchant, and the window to check at commit
 */
export async function readLookback(
  ctx: EngineContext,
  partner: string,
  items: readonly ParseResult<ParsedTransaction>[],
  customers: ReadonlyMap<string, ParsedCustomer>,
  offers: CompiledOfferSet,
): Promise<{ purchases: PurchaseLists; lookback: Lookback | undefined }> {
  const purchases = new PurchaseLists();
  const window = offers.historyKeys.size === 0 ? undefined : windowOf(items, customers, offers);
  if (window === undefined) return { purchases, lookback: undefined };
  const read = await ctx.store.transactions.purchases(partner, window.query);
  for (const r of read) {
    purchases.listFor(r.customer_id, r.merchant_key).push(ctx.purchases.get(r));
  }
  const lookback: Lookback = {
    ...window,
    historyKeys: offers.historyKeys,
    read: countHistory(ctx, read, window.bounds, undefined),
  };
  return { purchases, lookback };
}

/**
 * Inside the unit that stores a batch, after its transactions are inserted: whether the window the
 * batch was decided on still holds, that is whether no racing call stored a purchase that could be
 * history for one of its items. Purchases are only ever added, so a count tells: the same query
 * read again, less the batch's own transactions (docs/engine.md, concurrency).
 * @returns false when the batch must be decided again
 */
export async function lookbackHolds(
  ctx: EngineContext,
  session: StoreSession,
  partner: string,
  lookback: Lookback,
  accepted: readonly ParsedTransaction[],
): Promise<boolean> {
  const own = new Set<string>();
  for (const tx of accepted) {
    if (lookback.historyKeys.has(tx.merchantKey)) own.add(tx.transactionId);
  }
  const now = await session.transactions.purchases(partner, lookback.query);
  return countHistory(ctx, now, lookback.bounds, own) === lookback.read;
}
