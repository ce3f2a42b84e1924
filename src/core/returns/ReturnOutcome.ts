import type { ItemError, ReturnErrorCode } from '../../model/errors.js';
import type { ParsedReturn } from '../../model/parseReturn.js';

/**
 * A payment adjusted by a return (docs/concepts.md, Returns). `cashback` 0 means the payment is
 * cancelled.
 * @public
 */
export interface Adjustment {
  /** The return. */
  readonly return_id: string;
  /** The returned transaction. */
  readonly transaction_id: string;
  /** Its customer. */
  readonly customer_id: string;
  /** The offer that paid it. */
  readonly offer_id: number;
  /** Cashback before this return, a JSON number with at most `scale` decimals. */
  readonly previous_cashback: number;
  /** Cashback after it: never more than `previous_cashback`. */
  readonly cashback: number;
  /** The payment's day, `YYYY-MM-DD` (unchanged). */
  readonly payment_date: string;
}

/**
 * What a return that arrived once its payment was confirmed takes back (docs/concepts.md, Late
 * returns): the payment stays as it is, and the bank claws `amount` back from its customer.
 * @public
 */
export interface Clawback {
  /** The return. */
  readonly return_id: string;
  /** The returned transaction. */
  readonly transaction_id: string;
  /** Its customer. */
  readonly customer_id: string;
  /** The offer that paid it. */
  readonly offer_id: number;
  /** The revision of that offer that paid it, whose terms the amount is worked out with. */
  readonly offer_revision: number;
  /**
   * What the return would have taken from the payment, less the payment's earlier clawbacks: a
   * JSON number with at most `scale` decimals, 0 included.
   */
  readonly amount: number;
  /** The return's date-time, wall-clock `YYYY-MM-DDTHH:mm:ss.SSS`. */
  readonly date: string;
  /** When it arrived, as `date`. */
  readonly reported_at: string;
}

/** Why a return adjusts nothing. @public */
export type ReturnError = ItemError<ReturnErrorCode>;

/**
 * The one outcome of one return: an adjustment or a clawback (with the exact texts a store
 * keeps), or an error.
 * @public
 */
export type ReturnOutcome =
  | {
      readonly ok: true;
      readonly kind: 'adjustment';
      readonly adjustment: Adjustment;
      /** `previous_cashback`, exact. */
      readonly previous: string;
      /** `cashback`, exact. */
      readonly cashback: string;
    }
  | {
      readonly ok: true;
      readonly kind: 'clawback';
      readonly clawback: Clawback;
      /** `amount`, exact. */
      readonly amount: string;
    }
  | { readonly ok: false; readonly error: ReturnError };

/** A return to store: parsed, with its amount filled in (absent: what was left). @public */
export type AcceptedReturn = Omit<ParsedReturn, 'amount'> & {
  /** Amount returned, an exact plain decimal text. */
  readonly amount: string;
};

/**
 * How one payment changes over a batch: from its cashback before the batch to its cashback
 * after the batch's last return of it.
 * @public
 */
export interface PaymentChange {
  /** The paid transaction. */
  readonly transactionId: string;
  /** Cashback before the batch, exact text, as the state gave it. */
  readonly previous: string;
  /** Cashback after the batch, exact text. */
  readonly cashback: string;
}

/** The result of deciding a batch of returns. @public */
export interface ReturnDecision {
  /** One outcome per return, in input order. */
  readonly outcomes: readonly ReturnOutcome[];
  /** Returns to store (past the first five checks), in input order. */
  readonly accepted: readonly AcceptedReturn[];
  /** Payments whose cashback the batch lowers, in the order the batch first names them. */
  readonly changes: readonly PaymentChange[];
}

/** Return outcomes sorted by kind, each list in the order decided. */
export interface SortedReturnOutcomes {
  readonly adjustments: Adjustment[];
  readonly clawbacks: Clawback[];
  readonly errors: ReturnError[];
}

/**
 * Sorts return outcomes into adjustments, clawbacks and errors, each in the order decided.
 * @param outcomes - the outcomes
 * @returns the three lists
 */
export function sortReturnOutcomes(outcomes: Iterable<ReturnOutcome>): SortedReturnOutcomes {
  const sorted: SortedReturnOutcomes = { adjustments: [], clawbacks: [], errors: [] };
  for (const o of outcomes) {
    if (!o.ok) sorted.errors.push(o.error);
    else if (o.kind === 'adjustment') sorted.adjustments.push(o.adjustment);
    else sorted.clawbacks.push(o.clawback);
  }
  return sorted;
}
