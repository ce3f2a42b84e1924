import { compileOffers, type OfferSet } from '../matching/compileOffers.js';
import type { Purchase } from '../matching/history.js';
import type { CustomerErrorCode, ItemError, TransactionErrorCode } from '../model/errors.js';
import { type CoreOptions, type ResolvedOptions, resolveOptions } from '../model/options.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import {
  type ParsedTransaction,
  type ParseResult,
  parseTransaction,
} from '../model/parseTransaction.js';
import { screenCustomers } from './customers.js';
import { _purchaseKey, type DecideState, decide, purchaseOf, screenHistory } from './decide.js';
import { TransactionIdSet } from './idSet.js';
import type { Outcome, Payment, TransactionError } from './outcome.js';
import { _SummaryBuilder, type ReplaySummary } from './summary.js';

/** Options of `replay`: the core options plus injected time and ids. @public */
export interface ReplayOptions extends CoreOptions {
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
  /** Offers (seed 2.7 JSON shapes), or a set already compiled by `compileOffers`. */
  readonly offers: readonly unknown[] | OfferSet;
  /** Customers (seed 2.1), applied first as one request. */
  readonly customers: readonly unknown[];
  /** History transactions (seed 4.2), applied after the customers. */
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

/** A replay fed in chunks: memory stays flat in the number of transactions. @public */
export interface ReplaySession {
  /** Rejections of the customers and history the session started from. */
  readonly rejected: ReplayResult['rejected'];
  /**
   * Decides the next consecutive chunk of transactions. Item keys `#<index>` count from the
   * start of the stream, so chunking changes nothing.
   */
  push(transactions: readonly unknown[]): readonly Outcome[];
  /** Decides a chunk that is already parsed (see `parseTransaction`). */
  pushParsed(items: readonly ParseResult<ParsedTransaction>[]): readonly Outcome[];
  /** Totals so far. */
  summary(): ReplaySummary;
}

/**
 * The same string, as V8's interned copy where it has one: the key a property of that name
 * would have. `JSON.parse` interns short string values, so a transaction's `customer_id` read
 * from JSON is then the very object the customer map holds, and the map compares the two by
 * address instead of reading the key (measured: about 40% faster lookups among 100,000
 * customers). Any other string comes back equal, so lookups are exactly as before.
 */
function interned(id: string): string {
  return Object.keys({ [id]: 0 })[0] ?? id;
}

function isOfferSet(offers: ReplayData['offers']): offers is OfferSet {
  return !Array.isArray(offers);
}

/**
 * Starts a replay: compiles offers, applies customers then history, and returns a session that
 * decides transactions chunk by chunk.
 * @param data - offers, customers and optional history
 * @param options - time zone, scale, rounding, operators
 * @returns the session
 * @throws OfferValidationError when an offer is invalid; RangeError for bad options
 * @public
 */
export function createReplay(data: ReplayData, options: CoreOptions = {}): ReplaySession {
  const resolved: ResolvedOptions = resolveOptions(options);
  const offers = isOfferSet(data.offers)
    ? data.offers
    : compileOffers(data.offers, { operators: resolved.operators });
  const customers = new Map<string, ParsedCustomer>();
  const ids = new TransactionIdSet();
  const purchases = new Map<string, Purchase[]>();
  const state: DecideState = {
    offers,
    options: resolved,
    customer: (id) => customers.get(id),
    hasTransaction: (id) => ids.has(id),
    storedIds: ids,
    purchases: (customerId, key) => purchases.get(_purchaseKey(customerId, key)),
  };
  const store = (accepted: readonly ParsedTransaction[]): void => {
    // decide records accepted ids in `ids` itself (storedIds).
    for (const tx of accepted) {
      // Only merchants whose offers read history keep purchases (DESIGN.md §8).
      if (!offers.historyKeys.has(tx.merchantKey)) continue;
      const key = _purchaseKey(tx.customerId, tx.merchantKey);
      const list = purchases.get(key);
      if (list === undefined) purchases.set(key, [purchaseOf(tx)]);
      else list.push(purchaseOf(tx));
    }
  };

  const customerBatch = screenCustomers(data.customers);
  for (const c of customerBatch.accepted) customers.set(interned(c.customerId), c);
  const historyItems = (data.history ?? []).map((h, i) =>
    parseTransaction(h, i, resolved.timeZone, true),
  );
  const historyBatch = screenHistory(historyItems, state);
  store(historyBatch.accepted);
  const rejected = { customers: customerBatch.errors, history: historyBatch.errors };
  const totals = new _SummaryBuilder(resolved.scale, resolved.currency);
  let offset = 0;

  const pushParsed = (items: readonly ParseResult<ParsedTransaction>[]): readonly Outcome[] => {
    const d = decide(items, state);
    store(d.accepted);
    for (const o of d.outcomes) totals.add(o);
    return d.outcomes;
  };
  return {
    rejected,
    pushParsed,
    push(transactions) {
      const items = new Array<ParseResult<ParsedTransaction>>(transactions.length);
      for (let i = 0; i < transactions.length; i++) {
        items[i] = parseTransaction(transactions[i], offset + i, resolved.timeZone);
      }
      offset += transactions.length;
      return pushParsed(items);
    },
    summary: () =>
      totals.build({ customers: rejected.customers.length, history: rejected.history.length }),
  };
}

/**
 * Replays a whole data set: customers first (one request), then history, then transactions in
 * array order. Synchronous and deterministic: the same input gives the same output.
 * @param data - offers, customers, optional history, and the transactions to decide
 * @param options - core options, plus `clock` and `ids`
 * @returns payments, errors, rejections and a summary
 * @throws OfferValidationError when an offer is invalid; RangeError for bad options
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
  const session = createReplay(data, options);
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
