import { compileOffers, type OfferSet } from '../matching/compileOffers.js';
import type { Purchase } from '../matching/history.js';
import { formatDay } from '../model/day.js';
import type { CustomerErrorCode, ItemError, TransactionErrorCode } from '../model/errors.js';
import { type CoreOptions, type ResolvedOptions, resolveOptions } from '../model/options.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../model/parseTransaction.js';
import { TransactionIdSet } from '../model/TransactionIdSet.js';
import { isWholeNumber } from '../model/wholeNumber.js';
import { screenCustomers } from './customers.js';
import { type DecideState, decide, purchaseOf, screenHistory } from './decide.js';
import type { Outcome, Payment, TransactionError } from './outcome.js';
import { PurchaseLists } from './PurchaseLists.js';
import { parseTransactions } from './parseTransactions.js';
import { requireArray, requireObject } from './requireInput.js';
import { type ReplaySummary, SummaryBuilder } from './SummaryBuilder.js';

/** Options of `createReplay`: the core options plus how late a transaction may arrive. @public */
export interface ReplaySessionOptions extends CoreOptions {
  /**
   * How many days a transaction may be dated before the newest transaction already pushed at a
   * merchant whose offers read history (counting only transactions that are stored: duplicates and
   * unknown customers read no history). The session keeps each customer's purchases at such a
   * merchant for the longest lookback plus this many days before that newest day, and drops older
   * ones, so its memory grows with customers and merchants, not with the transactions read
   * (docs/replay.md). A transaction later than this throws {@link LateTransactionError} before
   * anything of its chunk is decided. `Infinity` keeps every purchase and accepts any order.
   * @defaultValue `31` for `createReplay`; `Infinity` for `replay`, which holds its whole input anyway
   */
  readonly maxLatenessDays?: number;
}

/** Options of `replay`: the session options plus injected time and ids. @public */
export interface ReplayOptions extends ReplaySessionOptions {
  /** Stamps `generated_at` of the result; without it the result has none (the core reads no clock). */
  readonly clock?: () => Date;
  /**
   * Makes the `event_id` of the result.
   * @defaultValue a function returning `'replay'`
   */
  readonly ids?: () => string;
}

/** What a replay starts from. @public */
export interface ReplayData {
  /** Offers (the partner API's JSON shapes), or a set already compiled by `compileOffers`. */
  readonly offers: readonly unknown[] | OfferSet;
  /** Customers (the partner API's shape), applied first as one request. */
  readonly customers: readonly unknown[];
  /** History transactions (`POST /transactions-history`), applied after the customers. */
  readonly history?: readonly unknown[];
}

/** What the whole replay of a data set returns. @public */
export interface ReplayResult {
  /** Id of the replay as one processing event. */
  readonly event_id: string;
  /** When the replay ran, from `clock`; absent without a clock. */
  readonly generated_at?: string;
  /** Payments, in transaction order. */
  readonly payments: readonly Payment[];
  /** One error per transaction that earns nothing, in transaction order. */
  readonly errors: readonly TransactionError[];
  /** Customers and history transactions that were not applied. */
  readonly rejected: {
    readonly customers: readonly ItemError<CustomerErrorCode>[];
    readonly history: readonly ItemError<TransactionErrorCode>[];
  };
  /** Counts by outcome and by offer. */
  readonly summary: ReplaySummary;
}

/**
 * Thrown by a replay session for a transaction at a merchant whose offers read history that is
 * dated more than `maxLatenessDays` days before the newest such transaction pushed before it: the
 * purchases its lookback needs may have been dropped, so it cannot be decided exactly. Nothing of
 * the chunk was decided or recorded; the session goes on as if the chunk had not been pushed.
 * @public
 */
export class LateTransactionError extends RangeError {
  /** Key of the transaction: its `transaction_id`. */
  readonly key: string;
  /** Its calendar day, `YYYY-MM-DD`. */
  readonly day: string;
  /** The newest day pushed before it at a merchant whose offers read history. */
  readonly newestDay: string;
  /** The session's `maxLatenessDays`. */
  readonly maxLatenessDays: number;

  /**
   * @param key - transaction id
   * @param day - its day
   * @param newestDay - the newest day before it
   * @param maxLatenessDays - the session's allowance
   */
  constructor(key: string, day: string, newestDay: string, maxLatenessDays: number) {
    super(
      `Transaction '${key}' of ${day} is more than ${maxLatenessDays} day(s) older than ${newestDay}, ` +
        'the newest transaction replayed at a merchant whose offers read history, and the purchases ' +
        'its lookback needs may be gone. Push transactions in date order, or raise maxLatenessDays ' +
        '(Infinity keeps every purchase).',
    );
    this.name = 'LateTransactionError';
    this.key = key;
    this.day = day;
    this.newestDay = newestDay;
    this.maxLatenessDays = maxLatenessDays;
  }
}

/** What a replay session holds in memory, in items. @public */
export interface ReplayRetained {
  /** Customers registered. */
  readonly customers: number;
  /** Transaction ids stored (history and pushed), kept to find duplicates. */
  readonly transactionIds: number;
  /** Purchases kept for lookbacks and `history` facts. */
  readonly purchases: number;
}

/** A replay fed in chunks: memory stays flat in the number of transactions. @public */
export interface ReplaySession {
  /** Rejections of the customers and history the session started from. */
  readonly rejected: ReplayResult['rejected'];
  /**
   * Decides the next consecutive chunk of transactions. Item keys `#<index>` count from the
   * start of the stream, so chunking changes nothing. Throws a `TypeError` when `transactions`
   * is not an array, and {@link LateTransactionError} as `maxLatenessDays` says.
   */
  push(transactions: readonly unknown[]): readonly Outcome[];
  /** Decides a chunk that is already parsed (see `parseTransaction`); throws as `push` does. */
  pushParsed(items: readonly ParseResult<ParsedTransaction>[]): readonly Outcome[];
  /** Totals so far. */
  summary(): ReplaySummary;
  /** What the session holds in memory now. */
  retained(): ReplayRetained;
}

const DEFAULT_LATENESS_DAYS = 31;

function latenessOf(value: number | undefined, fallback: number): number {
  const days = value ?? fallback;
  if (days !== Number.POSITIVE_INFINITY && !isWholeNumber(days)) {
    throw new RangeError(
      `maxLatenessDays must be a whole number >= 0 or Infinity, got ${String(days)}`,
    );
  }
  return days;
}

function isOfferSet(offers: ReplayData['offers']): offers is OfferSet {
  // Anything else, arrays and mistakes alike, goes to compileOffers, which names what is wrong.
  return typeof offers === 'object' && offers !== null && 'byMerchant' in offers;
}

/**
 * Starts a replay: compiles offers, applies customers then history, and returns a session that
 * decides transactions chunk by chunk.
 * @param data - offers, customers and optional history
 * @param options - time zone, scale, rounding, operators
 * @returns the session
 * @throws OfferValidationError when an offer is invalid; RangeError for bad options; TypeError
 *   when `data` is not an object or one of its lists is not an array
 * @public
 */
export function createReplay(data: ReplayData, options: ReplaySessionOptions = {}): ReplaySession {
  requireObject(data, 'data');
  requireArray(data.customers, 'data.customers');
  if (data.history !== undefined) requireArray(data.history, 'data.history');
  const resolved: ResolvedOptions = resolveOptions(options);
  const lateness = latenessOf(options.maxLatenessDays, DEFAULT_LATENESS_DAYS);
  const offers = isOfferSet(data.offers)
    ? data.offers
    : compileOffers(data.offers, { operators: resolved.operators });
  const customers = new Map<string, ParsedCustomer>();
  const ids = new TransactionIdSet();
  const purchases = new PurchaseLists();
  const state: DecideState = {
    offers,
    options: resolved,
    customer: (id) => customers.get(id),
    hasTransaction: (id) => ids.has(id),
    purchases: (customerId, key) => purchases.get(customerId, key),
  };
  let kept = 0;
  // The newest day stored at a merchant whose offers read history; purchases older than `cutoff`
  // can be in no lookback of a transaction that is not late (see `maxLatenessDays`).
  let newestDay = Number.NEGATIVE_INFINITY;
  let cutoff = Number.NEGATIVE_INFINITY;
  const store = (accepted: readonly ParsedTransaction[]): void => {
    for (const tx of accepted) {
      ids.add(tx.transactionId);
      // Only merchants whose offers read history keep purchases (docs/replay.md).
      if (!offers.historyKeys.has(tx.merchantKey)) continue;
      let list = purchases.listFor(tx.customerId, tx.merchantKey);
      if (list.length > 0 && (list[0] as Purchase).day < cutoff) {
        const before = list.length;
        list = list.filter((p) => p.day >= cutoff);
        kept -= before - list.length;
        purchases.set(tx.customerId, tx.merchantKey, list);
      }
      list.push(purchaseOf(tx));
      kept++;
    }
  };
  /** Moves the newest day on; what falls before the new cutoff goes as its lists are touched. */
  const advance = (day: number): void => {
    if (day <= newestDay) return;
    newestDay = day;
    cutoff = newestDay - lateness - offers.maxLookbackDays;
  };

  const customerBatch = screenCustomers(data.customers);
  for (const c of customerBatch.accepted) customers.set(c.customerId, c);
  const historyItems = parseTransactions(data.history ?? [], resolved.timeZone, true);
  const historyBatch = screenHistory(historyItems, state);
  for (const tx of historyBatch.accepted) {
    if (offers.historyKeys.has(tx.merchantKey)) advance(tx.when.day);
  }
  store(historyBatch.accepted);
  const rejected = { customers: customerBatch.errors, history: historyBatch.errors };
  const totals = new SummaryBuilder(resolved.scale, resolved.currency);
  let offset = 0;

  /**
   * The newest day at a history merchant once `accepted` is stored; throws for the first late one.
   * Only transactions that are stored count, as only they read history: a resubmitted old one is
   * a duplicate, not late. Which ones are stored does not depend on chunking, so neither does this.
   */
  const newestAfter = (accepted: readonly ParsedTransaction[]): number => {
    let newest = newestDay;
    if (offers.historyKeys.size === 0) return newest;
    for (const tx of accepted) {
      if (!offers.historyKeys.has(tx.merchantKey)) continue;
      const day = tx.when.day;
      if (day < newest - lateness) {
        throw new LateTransactionError(
          tx.transactionId,
          tx.when.dayText,
          formatDay(newest),
          lateness,
        );
      }
      if (day > newest) newest = day;
    }
    return newest;
  };

  const pushParsed = (items: readonly ParseResult<ParsedTransaction>[]): readonly Outcome[] => {
    // Nothing is recorded before the chunk is decided and found in time: a chunk that throws
    // leaves the session as it was.
    const d = decide(items, state);
    advance(newestAfter(d.accepted));
    store(d.accepted);
    for (const o of d.outcomes) totals.add(o);
    return d.outcomes;
  };
  return {
    rejected,
    pushParsed,
    push(transactions) {
      const items = parseTransactions(transactions, resolved.timeZone, false, offset);
      const outcomes = pushParsed(items);
      // Only once the chunk is decided: a chunk that threw leaves the keys where they were.
      offset += transactions.length;
      return outcomes;
    },
    summary: () =>
      totals.build({ customers: rejected.customers.length, history: rejected.history.length }),
    retained: () => ({ customers: customers.size, transactionIds: ids.size, purchases: kept }),
  };
}

/**
 * Replays a whole data set: customers first (one request), then history, then transactions in
 * array order. Synchronous and deterministic: the same input gives the same output.
 * @param data - offers, customers, optional history, and the transactions to decide
 * @param options - core options, plus `clock` and `ids`
 * @returns payments, errors, rejections and a summary
 * @throws OfferValidationError when an offer is invalid; RangeError for bad options; TypeError
 *   when `data` is not an object or one of its lists is not an array
 * @example
 * ```ts
 * const r = replay({ offers, customers, history, transactions });
 * console.log(r.summary.totalCashback, r.errors.length);
 * ```
 * @public
 */
export function replay(
  data: ReplayData & { readonly transactions: readonly unknown[] },
  options: ReplayOptions = {},
): ReplayResult {
  requireObject(data, 'data');
  requireArray(data.transactions, 'data.transactions');
  const session = createReplay(data, {
    ...options,
    maxLatenessDays: options.maxLatenessDays ?? Number.POSITIVE_INFINITY,
  });
  const payments: Payment[] = [];
  const errors: TransactionError[] = [];
  for (const o of session.push(data.transactions)) {
    if (o.ok) payments.push(o.payment);
    else errors.push(o.error);
  }
  const result: ReplayResult = {
    event_id: options.ids?.() ?? 'replay',
    payments,
    errors,
    rejected: session.rejected,
    summary: session.summary(),
  };
  return options.clock === undefined
    ? result
    : { ...result, generated_at: options.clock().toISOString() };
}
