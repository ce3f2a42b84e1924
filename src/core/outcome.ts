import type { Cashback } from '../matching/cashback.js';
import type { ItemError, TransactionErrorCode } from '../model/errors.js';

/**
 * A cashback payment for one transaction (the partner API's, plus `customer_id` and `offer_id`).
 * @public
 */
export interface Payment {
  /** The transaction it pays for. */
  readonly transaction_id: string;
  /** Its customer. */
  readonly customer_id: string;
  /** The offer that pays. */
  readonly offer_id: number;
  /** Cashback, a JSON number with at most `scale` decimals. */
  readonly cashback: number;
  /** Day + the offer's warranty, `YYYY-MM-DD`. */
  readonly payment_date: string;
}

/** Why a transaction earns nothing. @public */
export type TransactionError = ItemError<TransactionErrorCode>;

/**
 * The one outcome of one submitted transaction: a payment or an error, never both, never none.
 * @public
 */
export type Outcome =
  | { readonly ok: true; readonly payment: Payment; readonly cashback: Cashback }
  | { readonly ok: false; readonly error: TransactionError };

/** The status of a payment as of an instant (docs/concepts.md, The lifecycle of a payment). @public */
export type PaymentStatus = 'pending' | 'confirmed' | 'cancelled';
