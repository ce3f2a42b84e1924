import { candidatesOf } from '../matching/candidates.js';
import {
  type CompiledOfferSet,
  compiledOfferSet,
  type OfferSet,
} from '../matching/compileOffers.js';
import type { Spent } from '../matching/funding.js';
import type { Purchase } from '../matching/history.js';
import {
  type MatchInput,
  type MatchResult,
  matchInput,
  matchOffers,
  offerHolds,
} from '../matching/match.js';
import type { CompiledOffer } from '../matching/offer.js';
import type { WallClock } from '../model/dateTime.js';
import {
  customerNotFound as _customerNotFound,
  duplicateTransaction as _duplicateTransaction,
  issuesMessage as _issuesMessage,
  type ItemError,
  type TransactionErrorCode,
} from '../model/errors.js';
import type { ResolvedOptions } from '../model/options.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../model/parseTransaction.js';
import { type FundedPayment, FundingLedger } from './FundingLedger.js';
import type { Outcome } from './outcome.js';
import { requireArray } from './requireInput.js';
import { ITEM, MARK, type ScreenedIds, screenMark } from './screening.js';

/**
 * What `decide` reads: offers, options and the stored state of one partner. Lookups are plain
 * functions so that a replay backs them with maps and the engine with what it loaded for a batch.
 * @public
 */
export interface DecideState {
  /** Compiled offers, from `compileOffers`. */
  readonly offers: OfferSet;
  /** Resolved options (see `resolveOptions`). */
  readonly options: ResolvedOptions;
  /**
   * The partner's customer with this id, if registered. A read only: `decide` asks it for every
   * valid item of the batch before it matches any of them.
   */
  customer(customerId: string): ParsedCustomer | undefined;
  /** Whether a transaction with this id is already stored for the partner. */
  hasTransaction(transactionId: string): boolean;
  /**
   * Stored purchases of a customer under a history key, in any order: at a merchant key of
   * `offers.historyKeys`, or in the scope of a scoped offer of `offers.scopedHistory` (its
   * `historyKey`; docs/concepts.md, Scopes). Asked only for those keys; may omit purchases older
   * than `offers.maxLookbackDays` before the batch.
   */
  purchases(customerId: string, historyKey: string): readonly Purchase[] | undefined;
  /**
   * When a customer activated an offer, as wall-clock time in the engine's zone; `undefined`
   * when they did not. Asked only for offers with `requires_activation`. Absent: nobody did.
   */
  activation?(customerId: string, offerId: number): WallClock | undefined;
  /**
   * What an offer's budget (`customerId` undefined) or a customer's cap of it spent before the
   * batch in the period starting on day number `start` (docs/concepts.md, Funding controls);
   * `undefined` when nothing. Asked only for offers with a budget or a cap. Absent: nothing.
   */
  spent?(offerId: number, start: number, customerId: string | undefined): Spent | undefined;
}

/** The result of deciding one batch. @public */
export interface Decision {
  /** One outcome per item, in input order. */
  readonly outcomes: readonly Outcome[];
  /** Transactions to store (valid, known customer, not duplicate), in input order. */
  readonly accepted: readonly ParsedTransaction[];
  /** The payments of offers with a budget or a cap, in input order: what their counters add. */
  readonly funded: readonly FundedPayment[];
}

/**
 * The purchase a stored transaction stands for, as `DecideState.purchases` returns them.
 * @param tx - a stored (accepted) transaction
 * @returns its purchase: wall-clock time, day and amount
 * @public
 */
export function purchaseOf(tx: ParsedTransaction): Purchase {
  return { seconds: tx.when.seconds, nanos: tx.when.nanos, day: tx.when.day, amount: tx.amount };
}

function fail(key: string, code: TransactionErrorCode, message: string): Outcome {
  return { ok: false, error: { key, code, message } as ItemError<TransactionErrorCode> };
}

/**
 * The claims of one batch over `state.hasTransaction`: an id is taken when it is stored already
 * or claimed earlier in the batch. Claims live in the batch, never in the caller's state:
 * `decide` changes none of its inputs.
 * @param state - the stored state
 * @returns the batch's claims
 */
function idClaims(state: DecideState): ScreenedIds {
  const batch = new Set<string>();
  const has = (id: string) => batch.has(id) || state.hasTransaction(id);
  return {
    has,
    add: (id) => {
      if (has(id)) return false;
      batch.add(id);
      return true;
    },
  };
}

/** Where `screen` puts the customer of a transaction that passed. */
interface Screened {
  customer: ParsedCustomer | undefined;
}

/**
 * The screening every stored transaction goes through, in the order of `screenMark`. Returns the
 * failing outcome; or `undefined`, with the customer in `out` and the id claimed. (The customer
 * goes to `out` so that the caller need not read the customer object to tell it from an outcome:
 * most transactions never need it again.)
 */
function screen(
  item: ParseResult<ParsedTransaction>,
  state: DecideState,
  ids: ScreenedIds,
  what: string,
  out: Screened,
): Outcome | undefined {
  if (!item.ok) return fail(item.key, 'invalid_transaction', _issuesMessage(what, item.issues));
  const tx = item.value;
  const id = tx.transactionId;
  const customer = state.customer(tx.customerId);
  const mark = screenMark(customer === undefined ? ITEM.unknownCustomer : ITEM.known, id, ids);
  if (mark === MARK.duplicate) return fail(id, 'duplicate_transaction', _duplicateTransaction(id));
  if (mark === MARK.unknownCustomer) {
    return fail(id, 'customer_not_found', _customerNotFound(tx.customerId));
  }
  out.customer = customer;
  return undefined;
}

/**
 * Batch-local purchases: a transaction sees as history everything stored before it, earlier
 * items of its own batch included (docs/concepts.md), so chunking a batch changes nothing.
 */
class BatchHistory {
  /**
   * Per customer touched in this batch, its lists by merchant as a short chain: a customer rarely
   * buys at more than one merchant whose offers read history within a batch, and a chain entry
   * is one small object where a map per customer was several (docs/benchmarks.md).
   */
  private readonly byCustomer = new Map<string, BatchList>();
  constructor(private readonly state: DecideState) {}

  /**
   * The purchases of the customer under a history key (a merchant key, or a scope's key), stored
   * and batch-local, as a list the caller appends the transaction to once it is decided. The
   * stored list is copied once per customer, key and batch, never changed.
   */
  list(customerId: string, merchantKey: string): Purchase[] {
    const first = this.byCustomer.get(customerId);
    for (let e = first; e !== undefined; e = e.next) {
      if (e.merchantKey === merchantKey) return e.list;
    }
    const stored = this.state.purchases(customerId, merchantKey);
    const list = stored === undefined ? [] : stored.slice();
    this.byCustomer.set(customerId, { merchantKey, list, next: first });
    return list;
  }
}

/** One link of `BatchHistory`'s chain. */
interface BatchList {
  readonly merchantKey: string;
  readonly list: Purchase[];
  readonly next: BatchList | undefined;
}

function noOfferMessage(
  tx: ParsedTransaction,
  candidates: number,
  first: { offerId: number; check: string } | undefined,
): string {
  if (candidates === 0 || first === undefined) {
    // The key, not the name as sent: it is the string just hashed, so no further memory is read.
    return `No cashback offer associated with merchant '${tx.merchantKey}'`;
  }
  const others = candidates > 1 ? ` (and ${candidates - 1} other offer(s) at this merchant)` : '';
  return `No cashback offer associated with this transaction: offer ${first.offerId} failed its ${first.check} check${others}`;
}

/**
 * Decides one batch of parsed transactions: exactly one outcome per item, in array order.
 * Pure and synchronous; what to store comes back in `accepted`.
 * @param items - parse results (see `parseTransaction`), in submission order
 * @param state - offers, options and the partner's stored state
 * @returns one outcome per item and the transactions to store
 * @throws TypeError when `items` is not an array
 * @public
 */
export function decide(
  items: readonly ParseResult<ParsedTransaction>[],
  state: DecideState,
): Decision {
  return decideWatched(items, state, undefined);
}

/**
 * Sees each transaction that reached matching, with the input matching read (what was spent
 * before it, its batch's earlier payments included; its earlier purchases) and what matching
 * decided, before the payment is counted: the backtest's budget figures read them
 * (docs/backtest.md, Budgets and caps).
 */
export type MatchWatcher = (m: MatchInput, result: MatchResult) => void;

/**
 * `decide`, with a watcher of each match.
 * @param items - parse results, in submission order
 * @param state - offers, options and the partner's stored state
 * @param watch - sees each match, if given
 * @returns as `decide`
 */
export function decideWatched(
  items: readonly ParseResult<ParsedTransaction>[],
  state: DecideState,
  watch: MatchWatcher | undefined,
): Decision {
  requireArray(items, 'items');
  const offers = compiledOfferSet(state.offers, 'state.offers');
  const outcomes: Outcome[] = new Array(items.length);
  const accepted: ParsedTransaction[] = [];
  // A transaction sees what earlier items of its own batch were paid, as it sees their purchases
  // (docs/concepts.md, Funding controls).
  const batch: BatchFunding = {
    ledger: new FundingLedger(state.options, state.spent?.bind(state)),
    funded: [],
    watch,
  };
  const history = new BatchHistory(state);
  decideEach(items, state, offers, idClaims(state), history, batch, outcomes, accepted);
  return { outcomes, accepted, funded: batch.funded };
}

/**
 * The purchase lists of the scopes that hold a transaction and whose offers read history, by
 * `historyKey`; `undefined` when there are none (docs/concepts.md, Scopes).
 */
function scopeLists(
  offers: CompiledOfferSet,
  candidates: readonly CompiledOffer[],
  tx: ParsedTransaction,
  history: BatchHistory,
): { key: string; list: Purchase[] }[] | undefined {
  if (offers.scopedHistory.length === 0) return undefined;
  let lists: { key: string; list: Purchase[] }[] | undefined;
  // The scopes that read history are among the candidates: those that hold the transaction.
  for (const o of candidates) {
    if (o.scope === undefined || !o.needsHistory || !offerHolds(o, tx)) continue;
    const key = o.historyKey;
    if (lists?.some((s) => s.key === key) === true) continue;
    lists ??= [];
    lists.push({ key, list: history.list(tx.customerId, key) });
  }
  return lists;
}

/** What a batch's payments spent, and who watches its matches. */
interface BatchFunding {
  readonly ledger: FundingLedger;
  readonly funded: FundedPayment[];
  readonly watch: MatchWatcher | undefined;
}

function decideEach(
  items: readonly ParseResult<ParsedTransaction>[],
  state: DecideState,
  offers: CompiledOfferSet,
  ids: ScreenedIds,
  history: BatchHistory,
  batch: BatchFunding,
  outcomes: Outcome[],
  accepted: ParsedTransaction[],
): void {
  const options = state.options;
  const activation = state.activation?.bind(state);
  const screened: Screened = { customer: undefined };
  // Screening first, for the whole batch, in a loop of its own: its lookups (the customer, the
  // id among the stored ones) are random reads into large tables, and a short loop lets the CPU
  // overlap the cache misses of consecutive items, which the long matching step in between
  // would prevent. Customers are only read, and ids claimed in input order, so the outcomes are
  // those of one item at a time.
  const customers = new Array<ParsedCustomer | undefined>(items.length);
  for (let i = 0; i < items.length; i++) {
    const failed = screen(
      items[i] as ParseResult<ParsedTransaction>,
      state,
      ids,
      'transaction',
      screened,
    );
    if (failed !== undefined) outcomes[i] = failed;
    else customers[i] = screened.customer;
  }
  for (let i = 0; i < items.length; i++) {
    const customer = customers[i];
    if (customer === undefined) continue;
    const tx = (items[i] as { value: ParsedTransaction }).value;
    const id = tx.transactionId;
    accepted.push(tx);
    const merchant = tx.merchant;
    const candidates = candidatesOf(offers, tx.merchantKey, merchant.id, merchant.category_code);
    if (candidates === undefined) {
      // Most transactions end here: their merchant has no offer at all.
      outcomes[i] = fail(id, 'no_offer', noOfferMessage(tx, 0, undefined));
      continue;
    }
    // Earlier purchases, for merchants and scopes whose offers read them; this one joins them
    // once decided.
    const purchases = offers.historyKeys.has(tx.merchantKey)
      ? history.list(tx.customerId, tx.merchantKey)
      : undefined;
    const scoped = scopeLists(offers, candidates, tx, history);
    const m = matchInput(tx, customer, purchases, activation, batch.ledger.spent, scoped);
    const r = matchOffers(candidates, m, options);
    batch.watch?.(m, r);
    if (purchases !== undefined || scoped !== undefined) {
      const p = purchaseOf(tx);
      purchases?.push(p);
      if (scoped !== undefined) for (const s of scoped) s.list.push(p);
    }
    if (r.kind === 'paid') {
      if (r.offer.funded) {
        batch.ledger.pay(r.offer, tx.customerId, tx.when.day, r.cashback);
        batch.funded.push({ offer: r.offer, tx, cashback: r.cashback });
      }
      outcomes[i] = {
        ok: true,
        cashback: r.cashback,
        payment: {
          transaction_id: id,
          customer_id: tx.customerId,
          offer_id: r.offer.offerId,
          cashback: r.cashback.value,
          payment_date: r.paymentDate,
        },
      };
    } else if (r.kind === 'zero_cashback') {
      outcomes[i] = fail(
        id,
        'zero_cashback',
        `Cashback of offer ${r.offer.offerId} rounds to 0 at ${options.scale} decimal places`,
      );
    } else {
      outcomes[i] = fail(id, 'no_offer', noOfferMessage(tx, r.candidates, r.firstFailure));
    }
  }
}

/**
 * Screens a batch of history transactions (`POST /transactions-history`): validation, duplicate, customer. Nothing
 * is matched; the valid ones come back to be stored.
 * @param items - parse results of history items (`parseTransaction(…, true)`)
 * @param state - the partner's stored state
 * @returns errors keyed as in `decide`, and the transactions to store
 * @throws TypeError when `items` is not an array
 * @public
 */
export function screenHistory(
  items: readonly ParseResult<ParsedTransaction>[],
  state: DecideState,
): {
  readonly errors: readonly ItemError<TransactionErrorCode>[];
  readonly accepted: readonly ParsedTransaction[];
} {
  requireArray(items, 'items');
  const errors: ItemError<TransactionErrorCode>[] = [];
  const accepted: ParsedTransaction[] = [];
  const ids = idClaims(state);
  const screened: Screened = { customer: undefined };
  for (const item of items) {
    const failed = screen(item, state, ids, 'history transaction', screened);
    if (failed !== undefined) {
      if (!failed.ok) errors.push(failed.error);
      continue;
    }
    accepted.push((item as { value: ParsedTransaction }).value);
  }
  return { errors, accepted };
}
