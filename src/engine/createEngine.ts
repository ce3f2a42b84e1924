import { screenCustomers } from '../core/customers.js';
import { type DecideState, decide, screenHistory } from '../core/decide.js';
import { _explainParsed, type Explanation } from '../core/explain.js';
import { _requireArray } from '../core/input.js';
import type { Payment, TransactionError } from '../core/outcome.js';
import { _PurchaseLists } from '../core/purchases.js';
import { compileOffers, type OfferSet } from '../matching/compileOffers.js';
import type { Offer } from '../matching/offer.js';
import { isBefore as _isBefore, dayInZone, type WallClock } from '../model/dateTime.js';
import { formatDay } from '../model/day.js';
import { type CoreOptions, type ResolvedOptions, resolveCoreOptions } from '../model/options.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import {
  type ParsedTransaction,
  type ParseResult,
  parseTransaction,
} from '../model/parseTransaction.js';
import { createMemoryStore } from '../store/memory/createMemoryStore.js';
import type {
  OfferRecord,
  OutboxEvent,
  PaymentRecord,
  TransactionRecord,
} from '../store/records.js';
import type { PurchaseQuery, Store, StoreSession } from '../store/Store.js';
import { _cashbackText, _errorMap, _sameJson } from './_internals.js';
import { _CustomerCache, _customerRecord, _PurchaseCache, _transactionRecord } from './_records.js';
import { createMemoryPartners, type PartnerRegistry } from './partners.js';
import { _parsePaymentsQuery } from './paymentsQuery.js';
import type {
  AddHistoryResult,
  AddTransactionsResult,
  CashbackPaymentRecord,
  PaymentsPage,
  PaymentsQuery,
  SeedOffer,
  SeedPayment,
  UpsertCustomersResult,
  UpsertOffersResult,
} from './results.js';

/** Options of {@link createEngine}: the core options plus storage, time, ids and partners. @public */
export interface EngineOptions extends CoreOptions {
  /**
   * Where state lives.
   * @defaultValue a new memory store (`createMemoryStore()`)
   */
  readonly store?: Store;
  /**
   * The time: stamps events and decides which offers are active today.
   * @defaultValue `() => new Date()`
   */
  readonly clock?: () => Date;
  /**
   * Makes event ids (`event_id`, webhook ids); must not repeat.
   * @defaultValue `() => crypto.randomUUID()`
   */
  readonly ids?: () => string;
  /**
   * Partners and their webhook settings: who gets `offer.updated` events.
   * @defaultValue an empty memory registry
   */
  readonly partners?: PartnerRegistry;
}

/**
 * The cashback service over a store: every operation of the seed's partner API as a method.
 * `partner` is the partner's application id, the tenant key of everything it stores; any
 * non-empty string is accepted.
 * @public
 */
export interface CashbackEngine {
  /** The resolved core options. */
  readonly options: ResolvedOptions;
  /** The store the engine reads and writes. */
  readonly store: Store;
  /**
   * Creates or replaces offers by `offer_id`, all or nothing; offers not named are kept. Every
   * created or changed offer emits one `offer.updated` event to every partner with a webhook.
   * @throws OfferValidationError when any offer is invalid (nothing is stored)
   */
  upsertOffers(offers: readonly unknown[]): Promise<UpsertOffersResult>;
  /** Registers or replaces customers (seed 4.3). */
  upsertCustomers(partner: string, customers: readonly unknown[]): Promise<UpsertCustomersResult>;
  /** Stores history transactions (seed 4.2); nothing is paid for them. */
  addHistory(partner: string, transactions: readonly unknown[]): Promise<AddHistoryResult>;
  /**
   * Decides and stores submitted transactions (seed 4.4): one payment or one error per item. The
   * accepted transactions, their payments and one `cashback.created` event (when anything is
   * paid) are stored in one unit of work.
   */
  addTransactions(
    partner: string,
    transactions: readonly unknown[],
  ): Promise<AddTransactionsResult>;
  /**
   * A page of the partner's payments whose payment day lies in the range (seed 4.5).
   * @throws InvalidRequestError for a bad query
   */
  listPayments(partner: string, query: PaymentsQuery): Promise<PaymentsPage>;
  /**
   * Offers that are active and not yet expired today (engine clock and zone), by `offer_id`, in
   * the seed's shape ({@link SeedOffer}).
   */
  activeOffers(): Promise<readonly SeedOffer[]>;
  /** Why a transaction would get what it gets now, against the partner's stored state. */
  explain(partner: string, transaction: unknown): Promise<Explanation>;
}

function requirePartner(partner: unknown): string {
  if (typeof partner !== 'string' || partner.length === 0) {
    throw new TypeError(
      `partner must be a non-empty string (the application id), got ${JSON.stringify(partner)}`,
    );
  }
  return partner;
}

/** The offers of a store compiled, with the revision they were read at. */
interface CompiledOffers {
  readonly revision: number;
  readonly set: OfferSet;
}

/**
 * Thrown inside a unit of work when a racing call got in first: it stored one of the batch's ids
 * (`ids`), or a purchase the batch's lookback would now read (`lookback`).
 */
class Conflict extends Error {
  constructor(readonly kind: 'ids' | 'lookback') {
    super(`conflict: ${kind}`);
  }
}

/**
 * How many times in one call a batch is decided again because racing calls kept storing purchases
 * its lookback reads, before the call gives up.
 */
const LOOKBACK_RETRIES = 32;

/** What of a customer's purchases at a merchant can be history for a batch's items there. */
interface PairBound {
  /** The earliest such item's day minus the longest lookback: older purchases never count. */
  fromDay: number;
  /** The latest such item's time: history is strictly before a transaction, so later ones never count. */
  latest: WallClock;
}

/** The lookback a batch was decided on: what `checkLookback` reads again at commit. */
interface Lookback {
  readonly query: PurchaseQuery;
  /** By `customerId + '\u0000' + merchantKey`, the bounds of each pair in `query`. */
  readonly bounds: ReadonlyMap<string, PairBound>;
  /** Merchant keys whose offers read history: the batch's own purchases are at these. */
  readonly historyKeys: ReadonlySet<string>;
  /** How many purchases the read returned that could be history for the batch. */
  readonly read: number;
}

/**
 * Creates an engine. Every option is optional: with none it keeps state in memory, reads the
 * system clock and judges days in UTC.
 * @param options - store, clock, ids, partners and the core options
 * @returns the engine
 * @throws RangeError for bad core options (time zone, scale, rounding)
 * @example
 * ```ts
 * const engine = createEngine({ timeZone: 'Europe/Paris' });
 * await engine.upsertOffers(offers);
 * await engine.upsertCustomers('bank-a', customers);
 * const result = await engine.addTransactions('bank-a', transactions);
 * console.log(result.payments, result.errors);
 * ```
 * @public
 */
export function createEngine(options: EngineOptions = {}): CashbackEngine {
  const resolved = resolveCoreOptions(options);
  const store = options.store ?? createMemoryStore();
  const clock = options.clock ?? (() => new Date());
  const ids = options.ids ?? (() => globalThis.crypto.randomUUID());
  const partners = options.partners ?? createMemoryPartners();
  const customerCache = new _CustomerCache();
  const purchaseCache = new _PurchaseCache(resolved.timeZone);
  const noOffers = compileOffers([]);
  let compiled: CompiledOffers | undefined;

  /** The store's offers compiled; recompiled only when its revision moved. */
  const currentOffers = async (): Promise<OfferSet> => {
    const revision = await store.offers.revision();
    if (compiled?.revision !== revision) {
      const records = await store.offers.list();
      compiled = {
        revision,
        set: compileOffers(records, { operators: resolved.operators }),
      };
    }
    return compiled.set;
  };

  const parseAll = (
    transactions: readonly unknown[],
    history: boolean,
  ): ParseResult<ParsedTransaction>[] => {
    _requireArray(transactions, 'transactions');
    const items = new Array<ParseResult<ParsedTransaction>>(transactions.length);
    for (let i = 0; i < transactions.length; i++) {
      items[i] = parseTransaction(transactions[i], i, resolved.timeZone, history);
    }
    return items;
  };

  /**
   * What deciding the batch reads from the store: its customers, which of its ids are stored and,
   * for merchants whose offers read history, the customers' earlier purchases there. One call
   * per resource.
   */
  const loadState = async (
    partner: string,
    items: readonly ParseResult<ParsedTransaction>[],
    offers: OfferSet,
    withPurchases: boolean,
  ): Promise<{ state: DecideState; lookback: Lookback | undefined }> => {
    const customerIds = new Set<string>();
    const txIds: string[] = [];
    for (const item of items) {
      if (!item.ok) continue;
      customerIds.add(item.value.customerId);
      txIds.push(item.value.transactionId);
    }
    const [customerRecords, existing] = await Promise.all([
      customerIds.size === 0 ? [] : store.customers.get(partner, [...customerIds]),
      txIds.length === 0 ? [] : store.transactions.existing(partner, txIds),
    ]);
    const customers = new Map<string, ParsedCustomer>();
    for (const r of customerRecords) customers.set(r.customer_id, customerCache.get(r));
    // Usually none: a set only when a batch repeats stored ids.
    const stored = existing.length === 0 ? undefined : new Set(existing);
    const purchases = new _PurchaseLists();
    let lookback: Lookback | undefined;
    if (withPurchases && offers.historyKeys.size > 0) {
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
          if (_isBefore(bound.latest.seconds, bound.latest.nanos, tx.when)) bound.latest = tx.when;
        }
        if (tx.when.day < firstDay) firstDay = tx.when.day;
      }
      if (pairs.length > 0) {
        for (const bound of bounds.values()) bound.fromDay -= offers.maxLookbackDays;
        const query = { pairs, fromDay: formatDay(firstDay - offers.maxLookbackDays) };
        const read = await store.transactions.purchases(partner, query);
        for (const r of read) {
          purchases.listFor(r.customer_id, r.merchant_key).push(purchaseCache.get(r));
        }
        lookback = {
          query,
          bounds,
          historyKeys: offers.historyKeys,
          read: countHistory(read, bounds, undefined),
        };
      }
    }
    const state: DecideState = {
      offers,
      options: resolved,
      customer: (id) => customers.get(id),
      hasTransaction: stored === undefined ? () => false : (id) => stored.has(id),
      purchases: (c, k) => purchases.get(c, k),
    };
    return { state, lookback };
  };

  /**
   * How many of `records` could be history for the batch: at one of its pairs, within the pair's
   * bounds, and not one of `own` (the batch's own transactions).
   */
  const countHistory = (
    records: readonly TransactionRecord[],
    bounds: ReadonlyMap<string, PairBound>,
    own: ReadonlySet<string> | undefined,
  ): number => {
    let n = 0;
    for (const r of records) {
      if (own?.has(r.transaction_id)) continue;
      const bound = bounds.get(`${r.customer_id}\u0000${r.merchant_key}`);
      if (bound === undefined) continue;
      const p = purchaseCache.get(r);
      if (p.day >= bound.fromDay && _isBefore(p.seconds, p.nanos, bound.latest)) n++;
    }
    return n;
  };

  /**
   * Inside the unit that stores a batch, after its transactions are inserted: throws `Conflict`
   * when the lookback the batch was decided on has changed, that is when a racing call stored a
   * purchase that could be history for one of its items (at one of its pairs, before the pair's
   * latest item and within the longest lookback of its earliest). Purchases are only ever added,
   * so a count tells: the same query read again, less the batch's own transactions.
   */
  const checkLookback = async (
    s: StoreSession,
    partner: string,
    lookback: Lookback | undefined,
    accepted: readonly ParsedTransaction[],
  ): Promise<void> => {
    if (lookback === undefined) return;
    const own = new Set<string>();
    for (const tx of accepted) {
      if (lookback.historyKeys.has(tx.merchantKey)) own.add(tx.transactionId);
    }
    const now = await s.transactions.purchases(partner, lookback.query);
    if (countHistory(now, lookback.bounds, own) !== lookback.read) throw new Conflict('lookback');
  };

  /**
   * Decides against the stored state and commits; when a racing call got in between (stored one
   * of the batch's ids, or a purchase its lookback reads), reads the state again and decides
   * again. Each id retry follows a commit that stored one more of the batch's ids, so a store
   * that keeps the insert-if-absent contract needs at most as many as items; past that the store
   * is broken and the call throws. Lookback retries have no such bound: after `LOOKBACK_RETRIES`
   * in one call it throws, and nothing of it is stored.
   */
  async function decideAndCommit<R>(
    items: readonly ParseResult<ParsedTransaction>[],
    attempt: () => Promise<R | Conflict>,
  ): Promise<R> {
    let idRetries = 0;
    let lookbackRetries = 0;
    for (;;) {
      const r = await attempt();
      if (!(r instanceof Conflict)) return r;
      if (r.kind === 'ids' && ++idRetries > items.length + 1) {
        throw new Error(
          'The store keeps reporting transaction ids as stored that it did not list as existing; ' +
            'it breaks the insert-if-absent contract of TransactionRepository',
        );
      }
      if (r.kind === 'lookback' && ++lookbackRetries > LOOKBACK_RETRIES) {
        throw new Error(
          `Racing calls stored purchases of this batch's customers ${LOOKBACK_RETRIES} times ` +
            'between reading and storing it; nothing was stored, send it again',
        );
      }
    }
  }

  const commitTransactions = async (
    partner: string,
    accepted: readonly ParsedTransaction[],
    source: 'history' | 'transaction',
    lookback?: Lookback,
    more?: (s: StoreSession) => Promise<void>,
  ): Promise<Conflict | undefined> => {
    const records = accepted.map((tx) => _transactionRecord(tx, source));
    try {
      await store.transaction(async (s) => {
        if (records.length > 0) {
          const inserted = await s.transactions.insert(partner, records);
          if (inserted.length !== records.length) throw new Conflict('ids');
        }
        await checkLookback(s, partner, lookback, accepted);
        if (more !== undefined) await more(s);
      });
      return undefined;
    } catch (e) {
      if (e instanceof Conflict) return e;
      throw e;
    }
  };

  return {
    options: resolved,
    store,

    async upsertOffers(offers) {
      const set = compileOffers(offers, { operators: resolved.operators });
      const result = await store.transaction(async (s) => {
        const stored = new Map<number, OfferRecord>();
        for (const o of await s.offers.list()) stored.set(o.offer_id, o);
        const created: number[] = [];
        const updated: number[] = [];
        const unchanged: number[] = [];
        const changed: OfferRecord[] = [];
        for (const c of set.offers) {
          const before = stored.get(c.offerId);
          if (before === undefined) created.push(c.offerId);
          else if (_sameJson(before, c.offer)) {
            unchanged.push(c.offerId);
            continue;
          } else updated.push(c.offerId);
          changed.push(c.offer);
        }
        if (changed.length > 0) {
          await s.offers.upsert(changed);
          const timestamp = clock().toISOString();
          for (const p of await partners.list()) {
            if (p.webhook_url === undefined) continue;
            const events: OutboxEvent[] = changed.map((offer) => ({
              id: ids(),
              type: 'offer.updated',
              payload: { type: 'offer.updated', timestamp, data: _seedOffer(offer) },
              created_at: timestamp,
            }));
            await s.outbox.add(p.application_id, events);
          }
        }
        return { created, updated, unchanged };
      });
      compiled = undefined;
      return result;
    },

    async upsertCustomers(partner, customers) {
      requirePartner(partner);
      const batch = screenCustomers(customers);
      const counts =
        batch.accepted.length === 0
          ? { added: 0, updated: 0 }
          : await store.customers.upsert(partner, batch.accepted.map(_customerRecord));
      return {
        Added: counts.added,
        Updated: counts.updated,
        Errors: _errorMap(batch.errors),
        details: { errors: batch.errors },
      };
    },

    async addHistory(partner, transactions) {
      requirePartner(partner);
      const items = parseAll(transactions, true);
      const event_id = ids();
      return decideAndCommit(items, async () => {
        const { state } = await loadState(partner, items, noOffers, false);
        const screened = screenHistory(items, state);
        const conflict = await commitTransactions(partner, screened.accepted, 'history');
        if (conflict !== undefined) return conflict;
        const result: AddHistoryResult = {
          event_id,
          errors: _errorMap(screened.errors),
          details: { errors: screened.errors },
        };
        return result;
      });
    },

    async addTransactions(partner, transactions) {
      requirePartner(partner);
      const items = parseAll(transactions, false);
      const event_id = ids();
      const offers = await currentOffers();
      return decideAndCommit(items, async () => {
        const { state, lookback } = await loadState(partner, items, offers, true);
        const decision = decide(items, state);
        const paid: Payment[] = [];
        const payments: PaymentRecord[] = [];
        const errors: TransactionError[] = [];
        decision.outcomes.forEach((o, i) => {
          if (!o.ok) {
            errors.push(o.error);
            return;
          }
          const p = o.payment;
          // A paid item is a parsed submitted transaction, so its location is there.
          const location = (items[i] as { value: ParsedTransaction }).value.location;
          paid.push(p);
          payments.push({
            transaction_id: p.transaction_id,
            customer_id: p.customer_id,
            offer_id: p.offer_id,
            cashback_amount: _cashbackText(o.cashback, resolved.scale),
            payment_date: p.payment_date,
            country: location?.country ?? '',
            city: location?.city ?? '',
            event_id,
          });
        });
        const more =
          payments.length === 0
            ? undefined
            : async (s: StoreSession) => {
                await s.payments.insert(partner, payments);
                const timestamp = clock().toISOString();
                await s.outbox.add(partner, [
                  {
                    id: event_id,
                    type: 'cashback.created',
                    payload: {
                      type: 'cashback.created',
                      event_id,
                      timestamp,
                      data: { records: payments.map(_paymentRecord) },
                    },
                    created_at: timestamp,
                  },
                ]);
              };
        const conflict = await commitTransactions(
          partner,
          decision.accepted,
          'transaction',
          lookback,
          more,
        );
        if (conflict !== undefined) return conflict;
        const result: AddTransactionsResult = {
          event_id,
          payments: paid.map(
            (p): SeedPayment => ({
              cashback: p.cashback,
              payment_date: p.payment_date,
              transaction_id: p.transaction_id,
            }),
          ),
          errors: _errorMap(errors),
          details: { payments: paid, errors },
        };
        return result;
      });
    },

    async listPayments(partner, query) {
      requirePartner(partner);
      const q = _parsePaymentsQuery(query);
      const page = await store.payments.list(partner, {
        from: q.date_from,
        to: q.date_to,
        offset: (q.current_page - 1) * q.page_size,
        limit: q.page_size,
      });
      return {
        total_count: page.total,
        current_page: q.current_page,
        page_size: q.page_size,
        date_from: q.date_from,
        date_to: q.date_to,
        transactions: page.items.map(_paymentRecord),
      };
    },

    async activeOffers() {
      const set = await currentOffers();
      const today = dayInZone(clock(), resolved.timeZone);
      return set.offers
        .filter((o) => o.active && o.validTo >= today)
        .map((o) => _seedOffer(o.offer));
    },

    async explain(partner, transaction) {
      requirePartner(partner);
      const items = [parseTransaction(transaction, 0, resolved.timeZone)];
      const { state } = await loadState(partner, items, await currentOffers(), true);
      return _explainParsed(items[0] as ParseResult<ParsedTransaction>, state);
    },
  };
}

/** An offer in the seed's shape (2.7): see {@link SeedOffer}. */
function _seedOffer(o: Offer): SeedOffer {
  const { min_amount, max_cashback, ...rest } = o;
  return {
    ...rest,
    age: o.age ?? [],
    gender: o.gender ?? [],
    // Amounts go out as JSON numbers, as cashback does (DESIGN.md §3, Money).
    discount: Number(o.discount),
    ...(min_amount === undefined ? {} : { min_amount: Number(min_amount) }),
    ...(max_cashback === undefined ? {} : { max_cashback: Number(max_cashback) }),
  };
}

/** A stored payment as the seed's cashback payment record (2.6). */
function _paymentRecord(p: PaymentRecord): CashbackPaymentRecord {
  return {
    transaction_id: p.transaction_id,
    country: p.country,
    city: p.city,
    date: `${p.payment_date}T00:00:00.000`,
    cashback_amount: Number(p.cashback_amount),
    offer_id: p.offer_id,
    customer_id: p.customer_id,
  };
}
