import { PurchaseLists } from '../core/PurchaseLists.js';
import { scopeHistoryKeys } from '../matching/candidates.js';
import type { CompiledOfferSet } from '../matching/compileOffers.js';
import { isBefore, type WallClock } from '../model/dateTime.js';
import { formatDay } from '../model/day.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../model/parseTransaction.js';
import type { TransactionRecord } from '../store/records.js';
import type { PurchaseQuery, StoreSession } from '../store/Store.js';
import type { EngineContext } from './EngineContext.js';

/**
 * What of a customer's purchases under a history key (a merchant key, or a scope's) can be
 * history for a batch's items there.
 */
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
  /** By `customerId + '\u0000' + historyKey`, the bounds of each customer and key read. */
  readonly bounds: ReadonlyMap<string, PairBound>;
  /** The offers: which merchant keys and scopes read history. */
  readonly offers: CompiledOfferSet;
  /** How many purchases the read returned that could be history for the batch. */
  readonly read: number;
}

/** The history keys a purchase at a merchant joins: its merchant key's, and its scopes'. */
function keysOf(
  offers: CompiledOfferSet,
  customerId: string,
  merchantKey: string,
  merchantId: string,
  categoryCode: string,
  each: (key: string, scoped: boolean) => void,
): void {
  if (offers.historyKeys.has(merchantKey)) each(`${customerId}\u0000${merchantKey}`, false);
  for (const key of scopeHistoryKeys(offers, merchantKey, merchantId, categoryCode)) {
    each(`${customerId}\u0000${key}`, true);
  }
}

/**
 * The window of a batch: what it reads and the bounds of each customer and history key, or
 * `undefined` when it reads no history. A customer with an item in a scope that reads history is
 * read whole (`customers`): a scope's purchases may be at any merchant (docs/concepts.md, Scopes).
 */
function windowOf(
  items: readonly ParseResult<ParsedTransaction>[],
  customers: ReadonlyMap<string, ParsedCustomer>,
  offers: CompiledOfferSet,
): { query: PurchaseQuery; bounds: Map<string, PairBound> } | undefined {
  const pairs: { customerId: string; merchantKey: string }[] = [];
  const whole = new Set<string>();
  const bounds = new Map<string, PairBound>();
  let firstDay = Number.POSITIVE_INFINITY;
  for (const item of items) {
    if (!item.ok || !customers.has(item.value.customerId)) continue;
    const tx = item.value;
    let reads = false;
    const { id, category_code } = tx.merchant;
    keysOf(offers, tx.customerId, tx.merchantKey, id, category_code, (key, scoped) => {
      reads = true;
      const bound = bounds.get(key);
      if (bound === undefined) {
        bounds.set(key, { fromDay: tx.when.day, latest: tx.when });
        if (scoped) whole.add(tx.customerId);
        else pairs.push({ customerId: tx.customerId, merchantKey: tx.merchantKey });
      } else {
        if (tx.when.day < bound.fromDay) bound.fromDay = tx.when.day;
        if (isBefore(bound.latest.seconds, bound.latest.nanos, tx.when)) bound.latest = tx.when;
      }
    });
    if (reads && tx.when.day < firstDay) firstDay = tx.when.day;
  }
  if (bounds.size === 0) return undefined;
  for (const bound of bounds.values()) bound.fromDay -= offers.maxLookbackDays;
  const fromDay = formatDay(firstDay - offers.maxLookbackDays);
  if (whole.size === 0) return { query: { pairs, fromDay }, bounds };
  const rest = pairs.filter((p) => !whole.has(p.customerId));
  return { query: { pairs: rest, customers: [...whole], fromDay }, bounds };
}

/**
 * How many of `records` could be history for the batch: under one of its customers' history keys,
 * within the bounds read for it, and not one of `own` (the batch's own transactions).
 */
function countHistory(
  ctx: EngineContext,
  offers: CompiledOfferSet,
  records: readonly TransactionRecord[],
  bounds: ReadonlyMap<string, PairBound>,
  own: ReadonlySet<string> | undefined,
): number {
  let n = 0;
  for (const r of records) {
    if (own?.has(r.transaction_id)) continue;
    let counted = false;
    const { id, category_code } = r.merchant;
    keysOf(offers, r.customer_id, r.merchant_key, id, category_code, (key) => {
      const bound = bounds.get(key);
      if (counted || bound === undefined) return;
      const p = ctx.purchases.get(r);
      if (p.day >= bound.fromDay && isBefore(p.seconds, p.nanos, bound.latest)) counted = true;
    });
    if (counted) n++;
  }
  return n;
}

/**
 * Reads the purchases a batch's lookbacks need: for the pairs of a known customer and a merchant
 * whose offers read history, and all of a customer's with an item in a scope whose offers read
 * history, from the earliest such item's day minus the longest lookback. One store call, none
 * when no item needs history.
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
  const reads = offers.historyKeys.size > 0 || offers.scopedHistory.length > 0;
  const window = reads ? windowOf(items, customers, offers) : undefined;
  if (window === undefined) return { purchases, lookback: undefined };
  const read = await ctx.store.transactions.purchases(partner, window.query);
  for (const r of read) {
    const p = ctx.purchases.get(r);
    if (window.query.customers === undefined) {
      purchases.listFor(r.customer_id, r.merchant_key).push(p);
      continue;
    }
    const { id, category_code } = r.merchant;
    if (offers.historyKeys.has(r.merchant_key)) {
      purchases.listFor(r.customer_id, r.merchant_key).push(p);
    }
    for (const key of scopeHistoryKeys(offers, r.merchant_key, id, category_code)) {
      purchases.listFor(r.customer_id, key).push(p);
    }
  }
  const lookback: Lookback = {
    ...window,
    offers,
    read: countHistory(ctx, offers, read, window.bounds, undefined),
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
  const whole = new Set(lookback.query.customers);
  for (const tx of accepted) {
    if (lookback.offers.historyKeys.has(tx.merchantKey) || whole.has(tx.customerId)) {
      own.add(tx.transactionId);
    }
  }
  const now = await session.transactions.purchases(partner, lookback.query);
  return countHistory(ctx, lookback.offers, now, lookback.bounds, own) === lookback.read;
}
