import type { Explanation } from '../core/explain.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import {
  CORE_OPTION_KEYS,
  type CoreOptions,
  type ResolvedOptions,
  resolveCoreOptions,
} from '../model/options.js';
import { createMemoryStore } from '../store/memory/createMemoryStore.js';
import { requirePartner } from '../store/requirePartner.js';
import type { Store } from '../store/Store.js';
import { activeOffers } from './activeOffers.js';
import { addActivations } from './addActivations.js';
import { addReturns } from './addReturns.js';
import { addHistory, addTransactions } from './addTransactions.js';
import { BudgetGate } from './BudgetGate.js';
import { confirmDue } from './confirmDue.js';
import { CustomerCache } from './customerRecords.js';
import { createOfferCache, type EngineContext } from './EngineContext.js';
import { explainTransaction } from './explainTransaction.js';
import { listClawbacks } from './listClawbacks.js';
import { listPayments } from './listPayments.js';
import { offerRevisions } from './offerRevisions.js';
import { createMemoryPartners, type PartnerRegistry } from './partners.js';
import { paymentHistory } from './paymentHistory.js';
import { RevisionCache } from './RevisionCache.js';
import type {
  AddActivationsResult,
  AddHistoryResult,
  AddReturnsResult,
  AddTransactionsResult,
  ClawbacksPage,
  ClawbacksQuery,
  ConfirmDueResult,
  OfferRevisionInfo,
  PaymentHistory,
  PaymentsPage,
  PaymentsQuery,
  SeedOffer,
  UpsertCustomersResult,
  UpsertOffersResult,
} from './results.js';
import { PurchaseCache } from './transactionRecords.js';
import { upsertCustomers } from './upsertCustomers.js';
import { upsertOffers } from './upsertOffers.js';

/** Options of `createEngine`: the core options plus storage, time, ids and partners. @public */
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
 * The cashback service over a store: every operation of the partner API (docs/http.md) as a
 * method. `partner` is the partner's application id, the tenant key of everything it stores; any
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
  /** Registers or replaces customers (`POST /customers`). */
  upsertCustomers(partner: string, customers: readonly unknown[]): Promise<UpsertCustomersResult>;
  /**
   * Stores activations of offers by customers (`POST /activations`): `date` defaults to the
   * engine's clock; activating a pair again changes nothing and counts in `Updated`
   * (docs/concepts.md, Activation).
   */
  addActivations(partner: string, activations: readonly unknown[]): Promise<AddActivationsResult>;
  /** Stores history transactions (`POST /transactions-history`); nothing is paid for them. */
  addHistory(partner: string, transactions: readonly unknown[]): Promise<AddHistoryResult>;
  /**
   * Decides and stores submitted transactions (`POST /transactions`): one payment or one error
   * per item. The accepted transactions, their payments and one `cashback.created` event (when anything is
   * paid) are stored in one unit of work.
   */
  addTransactions(
    partner: string,
    transactions: readonly unknown[],
  ): Promise<AddTransactionsResult>;
  /**
   * Reports returns of stored transactions (docs/concepts.md, Returns): one outcome per item, an
   * adjustment or an error. The stored returns, the payments' new cashback and one
   * `cashback.adjusted` event (when anything is adjusted) are stored in one unit of work.
   * @param partner - the partner's application id
   * @param returns - the returns: `{ return_id, transaction_id, date, amount? }` each
   * @returns the event id, the adjustments in input order and the errors
   * @throws TypeError when `returns` is not an array
   */
  addReturns(partner: string, returns: readonly unknown[]): Promise<AddReturnsResult>;
  /**
   * A page of the partner's payments whose payment day lies in the range, each with its current
   * cashback and its status; payments that returns brought to 0 are left out
   * (`GET /cashback-payments`). With `status`, only the pending or only the confirmed ones.
   * @throws InvalidRequestError for a bad query
   */
  listPayments(partner: string, query: PaymentsQuery): Promise<PaymentsPage>;
  /**
   * Offers that are active and not yet expired today (engine clock and zone), by `offer_id`, in
   * the partner API's shape (`SeedOffer`).
   */
  activeOffers(): Promise<readonly SeedOffer[]>;
  /**
   * Why a transaction would get what it gets now, against the partner's stored state; for a
   * stored transaction with returns, what they did (`returns`).
   */
  explain(partner: string, transaction: unknown): Promise<Explanation>;
  /**
   * Puts into the outbox, for each partner and each payment day that has begun (engine clock and
   * zone), `cashback.confirmed` events with that day's payments not confirmed yet and their final
   * cashback, at most 1,000 records an event (docs/concepts.md, Confirmation). Each payment is in
   * exactly one such event, once: calling again, restarting, or several instances on one store
   * add none. `cashback serve` calls it at start and every minute.
   * @returns how many events and payments it confirmed
   */
  confirmDue(): Promise<ConfirmDueResult>;
  /**
   * A page of the partner's clawbacks whose return day lies in the range, paged as payments are
   * (`GET /clawbacks`; docs/concepts.md, Late returns).
   * @throws InvalidRequestError for a bad query
   */
  listClawbacks(partner: string, query: ClawbacksQuery): Promise<ClawbacksPage>;
  /**
   * A payment as decided, then each adjustment and clawback in order
   * (`GET /payments/{transaction_id}/history`; docs/concepts.md, History); `undefined` when the
   * partner has no payment of that transaction.
   * @throws InvalidRequestError when the id is not a transaction id
   */
  paymentHistory(partner: string, transactionId: string): Promise<PaymentHistory | undefined>;
  /**
   * Every revision of an offer, oldest first, with the instant each took effect (docs/concepts.md,
   * Offer revisions); empty for an offer never loaded.
   * @throws TypeError when `offerId` is not a positive whole number
   */
  offerRevisions(offerId: number): Promise<readonly OfferRevisionInfo[]>;
}

const KNOWN_KEYS: readonly (keyof EngineOptions)[] = [
  'store',
  'clock',
  'ids',
  'partners',
  ...CORE_OPTION_KEYS,
];

/**
 * Creates an engine. Every option is optional: with none it keeps state in memory, reads the
 * system clock and judges days in UTC.
 * @param options - store, clock, ids, partners and the core options
 * @returns the engine
 * @throws TypeError for an unknown option; RangeError for bad core options (time zone, scale,
 *   rounding)
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
  assertKnownKeys(options, KNOWN_KEYS, 'createEngine options');
  const resolved = resolveCoreOptions(options);
  const store = options.store ?? createMemoryStore();
  const ctx: EngineContext = {
    options: resolved,
    store,
    clock: options.clock ?? (() => new Date()),
    ids: options.ids ?? (() => globalThis.crypto.randomUUID()),
    partners: options.partners ?? createMemoryPartners(),
    customers: new CustomerCache(),
    purchases: new PurchaseCache(resolved.timeZone),
    offers: createOfferCache(store, resolved),
    budgets: new BudgetGate(),
    revisions: new RevisionCache(resolved),
  };

  // The partner id is checked before any work of the operation; a bad one rejects the call.
  const forPartner =
    <A, R>(operation: (ctx: EngineContext, partner: string, input: A) => Promise<R>) =>
    async (partner: string, input: A): Promise<R> =>
      operation(ctx, requirePartner(partner), input);
  return {
    options: resolved,
    store,
    upsertOffers: (offers) => upsertOffers(ctx, offers),
    upsertCustomers: forPartner(upsertCustomers),
    addActivations: forPartner(addActivations),
    addHistory: forPartner(addHistory),
    addTransactions: forPartner(addTransactions),
    addReturns: forPartner(addReturns),
    listPayments: forPartner(listPayments),
    activeOffers: () => activeOffers(ctx),
    explain: forPartner(explainTransaction),
    confirmDue: () => confirmDue(ctx),
    listClawbacks: forPartner(listClawbacks),
    paymentHistory: forPartner(paymentHistory),
    offerRevisions: (offerId) => offerRevisions(ctx, offerId),
  };
}
