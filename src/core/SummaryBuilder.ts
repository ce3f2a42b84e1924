import { type Cashback, cashbackDecimal } from '../matching/cashback.js';
import type { ERROR_CODES, ReturnErrorCode, TransactionErrorCode } from '../model/errors.js';
import { ExactMoney as Money, type MoneyValue } from '../model/money.js';
import type { Liability, LiabilitySummary } from './Liability.js';
import type { Outcome } from './outcome.js';

/** Totals of one offer in a replay. @public */
export interface OfferTotals {
  /** Payments made under the offer. */
  readonly payments: number;
  /** Their cashback, an exact decimal string with `scale` places. */
  readonly cashback: string;
}

/** Counts by outcome and by offer. @public */
export interface ReplaySummary {
  /** Transactions submitted. */
  readonly transactions: number;
  /** Transactions that earned a payment. */
  readonly paid: number;
  /** Transactions that earned nothing, by code (every code present, 0 when none). */
  readonly errors: Readonly<Record<TransactionErrorCode, number>>;
  /** Totals by `offer_id`, for offers that paid. */
  readonly byOffer: Readonly<Record<string, OfferTotals>>;
  /** Sum of all cashback, an exact decimal string with `scale` places. */
  readonly totalCashback: string;
  /** Customers and history transactions rejected before the transactions ran. */
  readonly rejected: { readonly customers: number; readonly history: number };
  /** The deployment's currency (informational). */
  readonly currency: string;
  /** What returns did; present only in a replay that takes returns (docs/replay.md, Returns). */
  readonly returns?: ReturnsSummary;
  /**
   * The cashback as of an instant, split into pending, confirmed, cancelled and clawed back: the
   * program's liability on that day (docs/replay.md, Liability).
   */
  readonly liability: LiabilitySummary;
}

/** Counts of a replay's returns and the cashback net of their adjustments. @public */
export interface ReturnsSummary {
  /** Returns pushed. */
  readonly returns: number;
  /** Returns that adjusted a payment. */
  readonly adjusted: number;
  /** Returns that adjusted nothing, by code (every code present, 0 when none). */
  readonly errors: Readonly<Record<ReturnErrorCode, number>>;
  /** Cashback the adjustments took back, an exact decimal string with `scale` places. */
  readonly adjustedCashback: string;
  /** `totalCashback` less `adjustedCashback`: the sum of the payments' current cashback. */
  readonly netCashback: string;
  /** Returns that arrived once their payment was confirmed and recorded a clawback. */
  readonly clawbacks: number;
  /** What the clawbacks took back (the payments stay as they are), with `scale` places. */
  readonly clawedBack: string;
}

const TRANSACTION_CODES = [
  'invalid_transaction',
  'customer_not_found',
  'duplicate_transaction',
  'no_offer',
  'zero_cashback',
] as const satisfies readonly (keyof typeof ERROR_CODES)[];

interface Totals {
  payments: number;
  units: number;
  decimal: MoneyValue;
}

/**
 * Accumulates a summary without keeping outcomes: memory stays flat however many transactions
 * stream through. Sums stay in safe integer units and spill into decimal.js when they would not.
 */
export class SummaryBuilder {
  private transactions = 0;
  private paid = 0;
  private readonly errors: Record<TransactionErrorCode, number> = {
    invalid_transaction: 0,
    customer_not_found: 0,
    duplicate_transaction: 0,
    no_offer: 0,
    zero_cashback: 0,
  };
  private readonly byOffer = new Map<number, Totals>();

  /**
   * @param scale - decimal places of cashback
   * @param currency - the deployment's currency
   * @param liability - where payments are counted by payment day
   */
  constructor(
    private readonly scale: number,
    private readonly currency: string,
    readonly liability: Liability,
  ) {}

  /** Counts one outcome. */
  add(outcome: Outcome): void {
    this.transactions++;
    if (!outcome.ok) {
      this.errors[outcome.error.code]++;
      return;
    }
    this.paid++;
    const id = outcome.payment.offer_id;
    let t = this.byOffer.get(id);
    if (t === undefined) {
      t = { payments: 0, units: 0, decimal: new Money(0) };
      this.byOffer.set(id, t);
    }
    t.payments++;
    this.addCashback(t, outcome.cashback);
    this.liability.paid(outcome.payment.payment_date, outcome.cashback);
  }

  private addCashback(t: Totals, c: Cashback): void {
    const next = t.units + c.units;
    if (Number.isSafeInteger(next)) t.units = next;
    else t.decimal = t.decimal.plus(cashbackDecimal(c, this.scale));
  }

  private total(t: Totals): MoneyValue {
    return t.decimal.plus(new Money(t.units).div(Money.pow(10, this.scale)));
  }

  /** The summary so far. */
  build(rejected: { customers: number; history: number }): ReplaySummary {
    const byOffer: Record<string, OfferTotals> = {};
    let total = new Money(0);
    for (const id of [...this.byOffer.keys()].sort((a, b) => a - b)) {
      const t = this.byOffer.get(id) as Totals;
      const sum = this.total(t);
      total = total.plus(sum);
      byOffer[String(id)] = { payments: t.payments, cashback: sum.toFixed(this.scale) };
    }
    const errors = {} as Record<TransactionErrorCode, number>;
    for (const code of TRANSACTION_CODES) errors[code] = this.errors[code];
    return {
      transactions: this.transactions,
      paid: this.paid,
      errors,
      byOffer,
      totalCashback: total.toFixed(this.scale),
      rejected: { ...rejected },
      currency: this.currency,
      liability: this.liability.build(),
    };
  }
}
