import { compileOffers, type OfferSet } from '../../matching/compileOffers.js';
import type { Purchase } from '../../matching/history.js';
import { formatDay } from '../../model/day.js';
import type { CustomerErrorCode, ItemError, TransactionErrorCode } from '../../model/errors.js';
import { assertKnownKeys } from '../../model/knownKeys.js';
import {
  CORE_OPTION_KEYS,
  type CoreOptions,
  type ResolvedOptions,
  resolveCoreOptions,
} from '../../model/options.js';
import type { ParsedCustomer } from '../../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../../model/parseTransaction.js';
import { TransactionIdSet } from '../../model/TransactionIdSet.js';
import { wholeNumber } from '../../model/wholeNumber.js';
import { describeValue } from '../../rules/_internals/describe.js';
import { screenCustomers } from '../customers.js';
import { type DecideState, decide, purchaseOf, screenHistory } from '../decide.js';
import type { Outcome, Payment, TransactionError } from '../outcome.js';
import { PurchaseLists } from '../PurchaseLists.js';
import { parseTransactions } from '../parseTransactions.js';
import { requireArray, requireObject } from '../requireInput.js';
import { type ReplaySummary, SummaryBuilder } from '../SummaryBuilder.js';

/** Options of `createReplay`: the core options plus how late a transaction may arrive. @public */
export interface ReplaySessionOptions extends CoreOptions {
  /**
   * How many days a transaction may be dated before the newest transaction already pushed at a
   * merchant whose offers read history (counting only transactions that are stored: duplicates and
   * unknown customers read no history). The session keeps each customer's purchases at such a
   * merchant for the longest lookback plus this many days before that newest day, and drops older
   * ones, so its memory grows with customers and merchants, not with the transactions read
   * (docs/replay.md, Streaming large data sets). A transaction later than this throws
   * {@link LateTransactionError} before anything of its chunk is decided. `Infinity` keeps every
   * purchase and accepts any order.
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
  /** Offers in their JSON shape (docs/concepts.md, Offers), or a set from `compileOffers`. */
  readonly offers: readonly unknown[] | OfferSet;
  /** Customers (docs/concepts.md, Input rules), applied first as one request. */
  readonly customers: readonly unknown[];
  /** History transactions (docs/concepts.md, Input rules), applied after the customers. */
  readonly history?: readonly unknown[];
  /**
   * The transactions to decide: required by `replay`; a session from `createReplay` does not read
   * them (push them), so that one data set can feed both.
   */
  readonly transactions?: readonly unknown[];
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
  /**
   * Decides a chunk that is already parsed (see `parseTransaction`); throws as `push` does, and a
   * `TypeError` naming the first item that is not a result of `parseTransaction`.
   */
  pushParsed(items: readonly ParseResult<ParsedTransaction>[]): readonly Outcome[];
  /** Totals so far. */
  summary(): ReplaySummary;
  /** What the session holds in memory now. */
  retained(): ReplayRetained;
}

const DEFAULT_LATENESS_DAYS = 31;

const SESSION_OPTION_KEYS: readonly string[] = [...CORE_OPTION_KEYS, 'maxLatenessDays'];
const REPLAY_OPTION_KEYS: readonly string[] = [...SESSION_OPTION_KEYS, 'clock', 'ids'];
// One data set feeds `replay` and `createReplay` alike; a session leaves `transactions` to `push`.
const DATA_KEYS: readonly string[] = ['offers', 'customers', 'history', 'transactions'];

/** Whether `offers` is what `compileOffers` returns (an array is not: it is offers to compile). */
function isOfferSet(offers: unknown): offers is OfferSet {
  const set = offers as Partial<OfferSet> | null;
  return (
    typeof set === 'object' &&
    set !== null &&
    Array.isArray(set.offers) &&
    typeof set.byMerchant?.get === 'function' &&
    typeof set.historyKeys?.has === 'function' &&
    typeof set.maxLookbackDays === 'number'
  );
}

/**
 * Checks the input object of `createReplay` and `replay`: an object with no key but `offers`,
 * `customers`, `history` and `transactions`, `offers` an array or an `OfferSet`, the other lists
 * arrays (`history` may be left out, and `transactions` too unless `withTransactions`).
 */
function checkData(data: unknown, withTransactions: boolean): asserts data is ReplayData {
  requireObject(data, 'data');
  assertKnownKeys(data, DATA_KEYS, 'data', 'field');
  const d = data as Record<string, unknown>;
  if (!Array.isArray(d.offers) && !isOfferSet(d.offers)) {
    throw new TypeError(
      `data.offers must be an array of offers or an OfferSet from compileOffers, got ${describeValue(d.offers)}`,
    );
  }
  requireArray(d.customers, 'data.customers');
  if (d.history !== undefined) requireArray(d.history, 'data.history');
  if (withTransactions || d.transactions !== undefined) {
    requireArray(d.transactions, 'data.transactions');
  }
}

/**
 * Throws a `TypeError` naming the first item that is not a parse result (what `parseTransaction`
 * returns), before anything of the chunk is decided: deciding one would fail half-way with a
 * message about its insides.
 */
function checkParseResults(items: readonly unknown[]): void {
  for (let i = 0; i < items.length; i++) {
    const r = items[i] as Partial<{ ok: boolean; value: unknown; key: unknown; issues: unknown }>;
    const ok =
      typeof r === 'object' &&
      r !== null &&
      (r.ok === true
        ? typeof r.value === 'object' && r.value !== null
        : r.ok === false && typeof r.key === 'string' && Array.isArray(r.issues));
    if (!ok) {
      throw new TypeError(
        `items[${i}] must be a result of parseTransaction, got ${describeValue(items[i])}`,
      );
    }
  }
}

/** Throws a TypeError naming the option unless `value` is a function or left out. */
function checkFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`${name} must be a function, got ${describeValue(value)}`);
  }
}

/**
 * Starts a replay: compiles offers, applies customers then history, and returns a session that
 * decides transactions chunk by chunk.
 * @param data - offers, customers and optional history
 * @param options - time zone, scale, rounding, operators
 * @returns the session
 * @throws OfferValidationError when an offer is invalid; TypeError when `data` is not an object,
 *   has a key other than `offers`, `customers`, `history` and `transactions`, or one of them has
 *   the wrong shape, and for an unknown option; RangeError for a bad option value
 * @public
 */
export function createReplay(data: ReplayData, options: ReplaySessionOptions = {}): ReplaySession {
  checkData(data, false);
  assertKnownKeys(options, SESSION_OPTION_KEYS, 'createReplay options');
  return startSession(data, options, DEFAULT_LATENESS_DAYS);
}

/** `createReplay` once its input and options are checked. */
function startSession(
  data: ReplayData,
  options: ReplaySessionOptions,
  defaultLateness: number,
): ReplaySession {
  const resolved: ResolvedOptions = resolveCoreOptions(options);
  const lateness = wholeNumber(options.maxLatenessDays ?? defaultLateness, 'maxLatenessDays', {
    infinity: true,
  });
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
    // decide refuses an `items` that is not an array before anything is recorded. Nothing is
    // recorded before the chunk is decided and found in time: a chunk that throws leaves the
    // session as it was.
    if (Array.isArray(items)) checkParseResults(items);
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
 * @throws OfferValidationError when an offer is invalid; TypeError when `data` is not an object,
 *   has a key other than `offers`, `customers`, `history` and `transactions`, or one of them has
 *   the wrong shape, for an unknown option, and when `clock` or `ids` is not a function;
 *   RangeError for a bad option value
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
  checkData(data, true);
  assertKnownKeys(options, REPLAY_OPTION_KEYS, 'replay options');
  const { clock, ids, ...sessionOptions } = options;
  checkFunction(clock, 'replay options.clock');
  checkFunction(ids, 'replay options.ids');
  const session = startSession(data, sessionOptions, Number.POSITIVE_INFINITY);
  const payments: Payment[] = [];
  const errors: TransactionError[] = [];
  for (const o of session.push(data.transactions)) {
    if (o.ok) payments.push(o.payment);
    else errors.push(o.error);
  }
  const eventId = ids === undefined ? 'replay' : ids();
  if (typeof eventId !== 'string' || eventId === '') {
    throw new TypeError(
      `replay options.ids must return a non-empty string, got ${describeValue(eventId)}`,
    );
  }
  const generatedAt = clock?.();
  if (
    generatedAt !== undefined &&
    !(generatedAt instanceof Date && !Number.isNaN(generatedAt.getTime()))
  ) {
    throw new TypeError(
      `replay options.clock must return a valid Date, got ${describeValue(generatedAt)}`,
    );
  }
  const result: ReplayResult = {
    event_id: eventId,
    payments,
    errors,
    rejected: session.rejected,
    summary: session.summary(),
  };
  return generatedAt === undefined
    ? result
    : { ...result, generated_at: generatedAt.toISOString() };
}
