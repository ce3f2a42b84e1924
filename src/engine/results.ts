import type { Payment, PaymentStatus, TransactionError } from '../core/outcome.js';
import type { Adjustment, Clawback, ReturnError } from '../core/returns/ReturnOutcome.js';
import type { FundingPeriod, Offer } from '../matching/offer.js';
import type {
  ActivationErrorCode,
  CustomerErrorCode,
  FieldIssue,
  ItemError,
} from '../model/errors.js';

/** A payment in the partner API's shape, as `addTransactions` returns it. @public */
export interface SeedPayment {
  /** Cashback amount, a JSON number with at most `scale` decimals. */
  readonly cashback: number;
  /** Day the cashback is paid, `YYYY-MM-DD`. */
  readonly payment_date: string;
  /** The transaction it belongs to. */
  readonly transaction_id: string;
}

/**
 * Per-item errors as the partner API reports them: a map from the item's key (its id, or
 * `#<index>`) to a message. When several items of one request share a key, their messages are joined with `; `
 * in input order; `details` keeps them apart. The object has no prototype, so that every key,
 * `__proto__` included, is an own property; `JSON.stringify` and `Object.entries` read it as usual.
 * @public
 */
export type ErrorMap = Readonly<Record<string, string>>;

/** What `addTransactions` returns (`POST /transactions`), plus `details`. @public */
export interface AddTransactionsResult {
  /** Id of this processing event; the `event_id` of its `cashback.created` webhook. */
  readonly event_id: string;
  /** Cashback determined, in input order. */
  readonly payments: readonly SeedPayment[];
  /** One entry per transaction that earns nothing. */
  readonly errors: ErrorMap;
  /**
   * The same outcome as data, for library users: payments with customer and offer, and errors
   * with their code (`{ key, code, message }`), each in input order. Not part of the partner
   * API's shape.
   */
  readonly details: {
    readonly payments: readonly Payment[];
    readonly errors: readonly TransactionError[];
  };
}

/** What `addReturns` returns, plus `details` (docs/engine.md, addReturns). @public */
export interface AddReturnsResult {
  /** Id of this processing event; the `event_id` of its `cashback.adjusted` webhook. */
  readonly event_id: string;
  /** Payments adjusted, one per return that adjusted one, in input order. */
  readonly adjustments: readonly Adjustment[];
  /**
   * Clawbacks, one per return that arrived once its payment was confirmed (with `lateReturns`
   * `clawback`), in input order (docs/concepts.md, Late returns).
   */
  readonly clawbacks: readonly Clawback[];
  /** One entry per return that adjusted nothing (stored or not: see the code). */
  readonly errors: ErrorMap;
  /** The same errors with their code (`{ key, code, message }`), in input order. */
  readonly details: { readonly errors: readonly ReturnError[] };
}

/** What `addHistory` returns (`POST /transactions-history`), plus `details`. @public */
export interface AddHistoryResult {
  /** Id of this processing event. */
  readonly event_id: string;
  /** One entry per history item that was not stored. */
  readonly errors: ErrorMap;
  /** The same errors with their code, in input order. Not part of the partner API's shape. */
  readonly details: { readonly errors: readonly TransactionError[] };
}

/** What `upsertCustomers` returns (`POST /customers`), plus `details`. @public */
export interface UpsertCustomersResult {
  /** Customers added. */
  readonly Added: number;
  /** Customers that existed and were replaced. */
  readonly Updated: number;
  /** One entry per rejected id or item. */
  readonly Errors: ErrorMap;
  /** The same errors with their code, in input order. Not part of the partner API's shape. */
  readonly details: { readonly errors: readonly ItemError<CustomerErrorCode>[] };
}

/** What `addActivations` returns (`POST /activations`), shaped like customers'. @public */
export interface AddActivationsResult {
  /** Activations stored now. */
  readonly Added: number;
  /** Activations of pairs stored before: kept as they were. */
  readonly Updated: number;
  /** One entry per rejected pair or item. */
  readonly Errors: ErrorMap;
  /** The same errors with their code. Not part of the partner API's shape. */
  readonly details: { readonly errors: readonly ItemError<ActivationErrorCode>[] };
}

/** What `upsertOffers` returns: the offer ids of each kind, ascending. @public */
export interface UpsertOffersResult {
  /** Offers that were not stored before. */
  readonly created: readonly number[];
  /** Stored offers that changed (a field or the active status). */
  readonly updated: readonly number[];
  /** Offers whose validated form (`active` filled in) equals the stored one. */
  readonly unchanged: readonly number[];
}

/** A cashback payment record of the partner API, as payment listings return it. @public */
export interface CashbackPaymentRecord {
  /** The transaction. */
  readonly transaction_id: string;
  /** Country of the transaction. */
  readonly country: string;
  /** City of the transaction. */
  readonly city: string;
  /** Payment day at midnight, `YYYY-MM-DDT00:00:00.000`. */
  readonly date: string;
  /** Cashback amount. */
  readonly cashback_amount: number;
  /** The offer that paid. */
  readonly offer_id: number;
  /** The customer. */
  readonly customer_id: string;
  /** The revision of the offer that decided it (docs/concepts.md, Offer revisions). */
  readonly offer_revision: number;
  /**
   * Its status as of the engine's clock when the record was made (docs/concepts.md, The lifecycle
   * of a payment): `pending` before its payment day, `confirmed` from then on, `cancelled` at 0.
   */
  readonly status: PaymentStatus;
}

/**
 * A payment record of a `cashback.adjusted` event: the payment with its new cashback, and the
 * cashback before the return.
 * @public
 */
export interface AdjustedPaymentRecord extends CashbackPaymentRecord {
  /** Cashback before the return. */
  readonly previous_cashback_amount: number;
}

/**
 * An offer as partners see it, in `activeOffers` and in `offer.updated` events: the
 * offer as loaded, with `active` filled in, `age` and `gender` always present (empty: any age,
 * any gender) and the amounts as JSON numbers, whether they were loaded as numbers or as decimal
 * strings. The extensions (docs/concepts.md) are included as loaded; `merchant_logo` and
 * `category_name` only when the offer has them.
 * @public
 */
export type SeedOffer = Omit<
  Offer,
  | 'age'
  | 'gender'
  | 'discount'
  | 'reward'
  | 'min_amount'
  | 'max_cashback'
  | 'budget'
  | 'customer_cap'
> & {
  /** Eligible age bands; empty means any age. */
  readonly age: readonly string[];
  /** Eligible genders; empty means any gender. */
  readonly gender: readonly string[];
  /** Discount percentage, when the offer has one (it has this or `reward`). */
  readonly discount?: number;
  /** Its reward, when it has no `discount` (docs/concepts.md, Rewards), amounts as numbers. */
  readonly reward?: SeedReward;
  /** Smallest transaction amount that earns the offer (extension). */
  readonly min_amount?: number;
  /** Cap of cashback per transaction (extension). */
  readonly max_cashback?: number;
  /** What the offer's payments in one period add up to at most (docs/concepts.md, Funding controls). */
  readonly budget?: {
    readonly amount: number;
    readonly period: FundingPeriod;
    readonly on_exhaust?: 'partial' | 'skip';
  };
  /** What one customer's payments of the offer in one period add up to and number at most. */
  readonly customer_cap?: {
    readonly amount?: number;
    readonly count?: number;
    readonly period: FundingPeriod;
  };
};

/**
 * An offer's reward as `activeOffers` lists it and `offer.updated` carries it: as loaded, its
 * amounts and rates as JSON numbers.
 * @public
 */
export type SeedReward =
  | { readonly type: 'percent'; readonly rate: number; readonly max_eligible_amount?: number }
  | { readonly type: 'fixed'; readonly amount: number }
  | {
      readonly type: 'tiers';
      readonly mode: 'whole' | 'marginal';
      readonly tiers: readonly { readonly from: number; readonly rate: number }[];
    };

/**
 * Inputs of `listPayments` (`GET /cashback-payments`). Pages may be numbers or digit strings.
 * @public
 */
export interface PaymentsQuery {
  /** First payment day, `YYYY-MM-DD`, inclusive. */
  readonly date_from: string;
  /** Last payment day, `YYYY-MM-DD`, inclusive; not before `date_from`. */
  readonly date_to: string;
  /**
   * Page number, from 1.
   * @defaultValue `1`
   */
  readonly current_page?: number | string;
  /**
   * Payments per page, 1–1000.
   * @defaultValue `100`
   */
  readonly page_size?: number | string;
  /**
   * Only the payments with this status as of the engine's clock: `pending` (payment day not begun)
   * or `confirmed`. Absent: both (payments at 0 are never listed).
   */
  readonly status?: 'pending' | 'confirmed';
}

/**
 * Inputs of `listClawbacks` (`GET /clawbacks`): clawbacks whose return day lies in the range,
 * paged as payments are.
 * @public
 */
export type ClawbacksQuery = Omit<PaymentsQuery, 'status'>;

/** A page of clawbacks (`GET /clawbacks`). @public */
export interface ClawbacksPage {
  /** Clawbacks in the range, over all pages. */
  readonly total_count: number;
  /** This page's number. */
  readonly current_page: number;
  /** Clawbacks per page. */
  readonly page_size: number;
  /** Start of the range (the returns' days). */
  readonly date_from: string;
  /** End of the range. */
  readonly date_to: string;
  /** This page's clawbacks, by the return's day, then return id. */
  readonly clawbacks: readonly Clawback[];
}

/**
 * A payment's history (`paymentHistory`, `GET /payments/{transaction_id}/history`): the payment
 * as decided, then each adjustment and clawback in the order they were recorded.
 * @public
 */
export interface PaymentHistory {
  /** The paid transaction. */
  readonly transaction_id: string;
  /** Its customer. */
  readonly customer_id: string;
  /** The offer that paid it. */
  readonly offer_id: number;
  /** The revision of the offer that decided it. */
  readonly offer_revision: number;
  /** The cashback as decided. */
  readonly decided_cashback: number;
  /** The cashback now. */
  readonly cashback: number;
  /** What its clawbacks took back (the payment stays as it is). */
  readonly clawed_back: number;
  /** The payment day, `YYYY-MM-DD`. */
  readonly payment_date: string;
  /** Its status as of the engine's clock. */
  readonly status: PaymentStatus;
  /** Adjustments and clawbacks, in the order recorded. */
  readonly changes: readonly PaymentHistoryEntry[];
}

/** One entry of a payment's history. @public */
export type PaymentHistoryEntry =
  | {
      readonly kind: 'adjustment';
      /** The return that lowered the payment. */
      readonly return_id: string;
      /** Cashback before. */
      readonly previous_cashback: number;
      /** Cashback after. */
      readonly cashback: number;
      /** When the engine recorded it, ISO 8601. */
      readonly recorded_at: string;
    }
  | ({
      readonly kind: 'clawback';
      /** When the engine recorded it, ISO 8601. */
      readonly recorded_at: string;
    } & Clawback);

/** One revision of an offer, as `offerRevisions` lists it. @public */
export interface OfferRevisionInfo {
  /** Its number, from 1. */
  readonly revision: number;
  /** When it took effect, ISO 8601 (the engine's clock). */
  readonly effective_at: string;
  /** The offer as it was in this revision, in the partner API's shape. */
  readonly offer: SeedOffer;
}

/** What one `confirmDue` call confirmed. @public */
export interface ConfirmDueResult {
  /** `cashback.confirmed` events written to the outbox. */
  readonly events: number;
  /** Payments they confirmed, each once. */
  readonly payments: number;
}

/** A page of payments (`GET /cashback-payments`). @public */
export interface PaymentsPage {
  /** Payments in the range, over all pages. */
  readonly total_count: number;
  /** This page's number. */
  readonly current_page: number;
  /** Payments per page. */
  readonly page_size: number;
  /** Start of the range. */
  readonly date_from: string;
  /** End of the range. */
  readonly date_to: string;
  /** This page's payments, by payment day, then transaction id. */
  readonly transactions: readonly CashbackPaymentRecord[];
}

/**
 * Thrown for request-level input the engine cannot act on (a bad payments query): the HTTP layer
 * answers it with 400. Per-item problems are never thrown; they are returned.
 * @public
 */
export class InvalidRequestError extends Error {
  /** Every problem, by field. */
  readonly issues: readonly FieldIssue[];
  /** @param issues - the problems */
  constructor(issues: readonly FieldIssue[]) {
    super(`Invalid request: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
    this.name = 'InvalidRequestError';
    this.issues = issues;
  }
}
