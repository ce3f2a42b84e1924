// Outcomes as they cross from a worker thread of `cashback replay --workers N` back to the reading
// thread: columns of numbers and one list of strings, no object per outcome (copying objects
// between threads costs more than making them again), and the cashback's exact value as the
// integer units it is computed in, so the reading thread does no decimal arithmetic.
import type { Outcome } from '../../core/outcome.js';
import type { ItemError, TransactionErrorCode } from '../../model/errors.js';
import { ExactMoney } from '../../model/money.js';

const CODES: readonly TransactionErrorCode[] = [
  'invalid_transaction',
  'customer_not_found',
  'duplicate_transaction',
  'no_offer',
  'zero_cashback',
];
const INVALID = 1 + CODES.indexOf('invalid_transaction');

/** The outcomes of one partition's items of a block, in order. */
export interface WireOutcomes {
  /** Per outcome: 0 for a payment, else 1 + the index of its error code in `CODES`. */
  readonly codes: Uint8Array;
  /** Per payment: `offer_id`. */
  readonly offers: Float64Array;
  /** Per payment: the cashback's units (`Cashback.units`, `NaN` when they do not fit). */
  readonly units: Float64Array;
  /** Per payment: the cashback as a JSON number. */
  readonly values: Float64Array;
  /**
   * Per payment `customer_id` and `payment_date`; per error its message, after its key for an
   * invalid item (any other error is keyed by its transaction id, which the reading thread has).
   */
  readonly texts: string[];
  /** The exact cashback of each payment whose units are `NaN`, as decimal text. */
  readonly decimals: string[];
}

/**
 * Outcomes in their wire form.
 * @param outcomes - a partition's outcomes
 * @returns the columns
 */
export function encodeOutcomes(outcomes: readonly Outcome[]): WireOutcomes {
  const codes = new Uint8Array(outcomes.length);
  const paid = outcomes.reduce((n, o) => (o.ok ? n + 1 : n), 0);
  const offers = new Float64Array(paid);
  const units = new Float64Array(paid);
  const values = new Float64Array(paid);
  const texts: string[] = [];
  const decimals: string[] = [];
  let k = 0;
  outcomes.forEach((o, i) => {
    if (o.ok) {
      offers[k] = o.payment.offer_id;
      units[k] = o.cashback.units;
      values[k] = o.payment.cashback;
      if (o.cashback.decimal !== undefined) decimals.push(o.cashback.decimal.toFixed());
      texts.push(o.payment.customer_id, o.payment.payment_date);
      k++;
      return;
    }
    const code = 1 + CODES.indexOf(o.error.code);
    codes[i] = code;
    if (code === INVALID) texts.push(o.error.key);
    texts.push(o.error.message);
  });
  return { codes, offers, units, values, texts, decimals };
}

/** Outcomes of a partition's part of a block, taken one by one, in order. */
export interface OutcomeSource {
  /**
   * The next outcome.
   * @param id - the transaction id of its item (`null` for an invalid item: it has none)
   * @returns the outcome
   */
  next(id: string | null): Outcome;
}

/** Outcomes decided in this thread, taken as they are. */
export class OutcomeList implements OutcomeSource {
  private at = 0;

  constructor(private readonly outcomes: readonly Outcome[]) {}

  next(): Outcome {
    return this.outcomes[this.at++] as Outcome;
  }
}

/** Reads wire outcomes back, one by one, in order. */
export class OutcomeReader implements OutcomeSource {
  private at = 0;
  private paid = 0;
  private text = 0;
  private decimal = 0;

  constructor(private readonly wire: WireOutcomes) {}

  /**
   * The next outcome.
   * @param id - the transaction id of its item (`null` for an invalid item: it has none)
   * @returns the outcome
   */
  next(id: string | null): Outcome {
    const w = this.wire;
    const code = w.codes[this.at++] as number;
    if (code !== 0) {
      const key = code === INVALID ? (w.texts[this.text++] as string) : (id as string);
      const error = {
        key,
        code: CODES[code - 1],
        message: w.texts[this.text++],
      } as ItemError<TransactionErrorCode>;
      return { ok: false, error };
    }
    const k = this.paid++;
    const units = w.units[k] as number;
    const value = w.values[k] as number;
    const decimal = Number.isNaN(units)
      ? new ExactMoney(w.decimals[this.decimal++] as string)
      : undefined;
    return {
      ok: true,
      cashback: { units, decimal, value },
      payment: {
        transaction_id: id as string,
        customer_id: w.texts[this.text++] as string,
        offer_id: w.offers[k] as number,
        cashback: value,
        payment_date: w.texts[this.text++] as string,
      },
    };
  }
}
