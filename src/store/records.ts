import type { Channel, Location, Merchant, Offer } from '../model/schemas.js';

/**
 * A registered customer as a store keeps it: the partner API's shape, validated and with its id
 * trimmed.
 * @public
 */
export interface CustomerRecord {
  /** Customer id, trimmed, 1–128 characters. */
  readonly customer_id: string;
  /** Birthday, `YYYY-MM-DD`, a real date. */
  readonly birthday: string;
  /** Gender as sent, trimmed (non-empty). */
  readonly gender: string;
  /** Location. */
  readonly location: Location;
}

/**
 * A stored transaction: an uploaded history item or an accepted submitted one. Both share one id
 * space per partner (docs/concepts.md).
 * @public
 */
export interface TransactionRecord {
  /** Transaction id, trimmed; unique per partner. */
  readonly transaction_id: string;
  /** Its customer. */
  readonly customer_id: string;
  /** `'history'` for an uploaded history item, `'transaction'` for a submitted one. */
  readonly source: 'history' | 'transaction';
  /**
   * Wall-clock date-time in the engine's time zone, `YYYY-MM-DDTHH:mm:ss.SSSSSSSSS` (always nine
   * fraction digits), so that comparing the texts compares the times.
   */
  readonly date: string;
  /** Calendar day of `date`, `YYYY-MM-DD`: what lookback queries select on. */
  readonly day: string;
  /** Amount, an exact plain decimal text such as `12.34`. */
  readonly amount: string;
  /** Normalised merchant name (see `merchantKey`): what lookback queries select on. */
  readonly merchant_key: string;
  /** Merchant as sent (`id` and `category_code` empty when a history item had none). */
  readonly merchant: Merchant;
  /** Description (empty when a history item had none). */
  readonly description: string;
  /** Location, when sent (always for submitted transactions). */
  readonly location?: Location;
  /** Where it was paid, when sent (docs/concepts.md, Scopes: channels). */
  readonly channel?: Channel;
}

/**
 * An activation as a store keeps it (docs/concepts.md, Activation): a customer of the partner
 * opted in to an offer from `date` on. At most one per partner, customer and offer.
 * @public
 */
export interface ActivationRecord {
  /** The customer, trimmed. */
  readonly customer_id: string;
  /** The offer. */
  readonly offer_id: number;
  /**
   * From when it counts: wall-clock date-time in the engine's time zone, in a transaction's stored
   * form (`YYYY-MM-DDTHH:mm:ss.SSSSSSSSS`).
   */
  readonly date: string;
}

/**
 * A cashback payment as a store keeps it: the partner API's payment record with the payment day
 * and the processing event it was created by. At most one per partner and transaction id.
 * @public
 */
export interface PaymentRecord {
  /** The transaction it pays for. */
  readonly transaction_id: string;
  /** Its customer. */
  readonly customer_id: string;
  /** The offer that pays. */
  readonly offer_id: number;
  /**
   * Current cashback, an exact plain decimal text with at most `scale` decimals, such as `0.62`:
   * as paid, then as returns lowered it (`0` when they cancelled it).
   */
  readonly cashback_amount: string;
  /** Payment day, `YYYY-MM-DD`: what listings select and order on. */
  readonly payment_date: string;
  /** Country of the transaction. */
  readonly country: string;
  /** City of the transaction. */
  readonly city: string;
  /** `event_id` of the `addTransactions` call that created it. */
  readonly event_id: string;
  /**
   * The revision of the offer that decided it (docs/concepts.md, Offer revisions): what a return
   * works it out again with, whatever the offer is now.
   */
  readonly offer_revision: number;
}

/**
 * A payment as `PaymentRepository.get` reads it: the record, with what its clawbacks took and
 * whether it was confirmed.
 * @public
 */
export interface StoredPayment extends PaymentRecord {
  /** What its clawbacks took so far, an exact plain decimal text (`0` when none). */
  readonly clawed_back_amount: string;
  /**
   * The `cashback.confirmed` event that confirmed it (`ConfirmationRepository.take`); `null`
   * while it is not confirmed. A confirmed payment's cashback never changes again.
   */
  readonly confirmed_event: string | null;
}

/**
 * A stored return (docs/concepts.md, Returns): past the checks that refuse a return, whether or
 * not it adjusted a payment. Returns have their own id space per partner.
 * @public
 */
export interface ReturnRecord {
  /** Return id, trimmed; unique per partner among returns. */
  readonly return_id: string;
  /** The returned transaction (a stored one of the partner). */
  readonly transaction_id: string;
  /**
   * Wall-clock date-time in the engine's time zone, `YYYY-MM-DDTHH:mm:ss.SSSSSSSSS`, as a
   * transaction's `date`.
   */
  readonly date: string;
  /** Calendar day of `date`, `YYYY-MM-DD`. */
  readonly day: string;
  /** Amount returned, an exact plain decimal text (an absent amount filled in: what was left). */
  readonly amount: string;
  /** `event_id` of the `addReturns` call that stored it. */
  readonly event_id: string;
}

/**
 * A change of a payment's cashback by a return: applied only when the payment still has the
 * cashback the change was worked out from and is not confirmed, so that a change decided on a
 * stale read never lands. Its history is recorded apart (`PaymentRepository.record`).
 * @public
 */
export interface PaymentAdjustment {
  /** The paid transaction. */
  readonly transaction_id: string;
  /** The cashback the payment has now, as read (compared as a number: `0.60` equals `0.6`). */
  readonly previous_cashback_amount: string;
  /** Its new cashback, an exact plain decimal text, not more than the previous one. */
  readonly cashback_amount: string;
}

/**
 * A late return's clawback as a store keeps it (docs/concepts.md, Late returns): appended, never
 * changed; the payment stays as it is.
 * @public
 */
export interface ClawbackRecord {
  /** The return (one clawback per return at most). */
  readonly return_id: string;
  /** The returned, paid transaction. */
  readonly transaction_id: string;
  /** Its customer. */
  readonly customer_id: string;
  /** The offer that paid it. */
  readonly offer_id: number;
  /** The revision of that offer that paid it. */
  readonly offer_revision: number;
  /** What it takes back, an exact plain decimal text (`0` included). */
  readonly amount: string;
  /** The return's date-time, wall-clock, as a transaction's stored `date`. */
  readonly date: string;
  /** The return's day, `YYYY-MM-DD`: what listings select and order on. */
  readonly day: string;
  /** When the return arrived, wall-clock, as `date`. */
  readonly reported_at: string;
  /** `event_id` of the `addReturns` call that recorded it. */
  readonly event_id: string;
  /** When it was recorded, an ISO 8601 instant from the engine's clock. */
  readonly recorded_at: string;
}

/**
 * One entry of a payment's history (docs/concepts.md, History): an adjustment that lowered its
 * cashback, or a clawback. Appended in the unit of work of its return, never changed.
 * @public
 */
export type PaymentChangeRecord =
  | {
      readonly kind: 'adjustment';
      /** The return that lowered the payment. */
      readonly return_id: string;
      /** The cashback before, exact text. */
      readonly previous_cashback_amount: string;
      /** The cashback after, exact text. */
      readonly cashback_amount: string;
      /** The paid transaction. */
      readonly transaction_id: string;
      /** `event_id` of the `addReturns` call. */
      readonly event_id: string;
      /** When it was recorded, an ISO 8601 instant from the engine's clock. */
      readonly recorded_at: string;
    }
  | ({ readonly kind: 'clawback' } & ClawbackRecord);

/**
 * One revision of an offer (docs/concepts.md, Offer revisions): the offer's first load is
 * revision 1, every change of any of its fields the next one. A store keeps every revision, never
 * rewritten.
 * @public
 */
export interface OfferRevision {
  /** The offer as loaded in this revision. */
  readonly offer: Offer;
  /** Its number, from 1. */
  readonly revision: number;
  /** When it took effect, an ISO 8601 instant from the engine's clock. */
  readonly effective_at: string;
}

/** Type of an outbox event. @public */
export type OutboxEventType =
  | 'cashback.created'
  | 'cashback.adjusted'
  | 'cashback.confirmed'
  | 'cashback.clawed_back'
  | 'offer.updated';

/**
 * An event waiting in the outbox for webhook delivery (docs/stores.md), written in the same unit of
 * work as the data it describes.
 * @public
 */
export interface OutboxEvent {
  /** Unique id of the event: the `webhook-id` of every delivery attempt. */
  readonly id: string;
  /** What happened. */
  readonly type: OutboxEventType;
  /** The body to deliver, JSON-serialisable. */
  readonly payload: Readonly<Record<string, unknown>>;
  /** When the event was created, an ISO 8601 instant from the engine's clock. */
  readonly created_at: string;
}
