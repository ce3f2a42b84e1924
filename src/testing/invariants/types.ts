import type { RoundingName } from '../../model/money.js';

/**
 * What `replay` was given, as far as the invariants read it: offers as JSON, customers, optional
 * history and the submitted transactions. A `Scenario` (see `scenarioArbitrary`) is one.
 * @example
 * ```ts
 * const input: ReplayInput = { offers, customers, transactions: [] };
 * ```
 * @public
 */
export interface ReplayInput {
  /** Offers in their JSON shape. */
  readonly offers: readonly unknown[];
  /** Customers. */
  readonly customers: readonly unknown[];
  /** History transactions. */
  readonly history?: readonly unknown[];
  /** Submitted transactions, in order. */
  readonly transactions: readonly unknown[];
  /**
   * Returns, in order (docs/concepts.md, Returns); each arrives at its `reported_at`, else its
   * `date` (docs/concepts.md, Late returns).
   */
  readonly returns?: readonly unknown[];
}

/**
 * What the invariants read from a replay's result; a `ReplayResult` is one.
 * @example
 * ```ts
 * const output: ReplayOutput = replay(scenario);
 * ```
 * @public
 */
export interface ReplayOutput {
  /** Payments, in transaction order. */
  readonly payments: readonly {
    readonly transaction_id: string;
    readonly customer_id: string;
    readonly offer_id: number;
    readonly cashback: number;
    readonly payment_date: string;
  }[];
  /** Errors, in transaction order. */
  readonly errors: readonly { readonly key: string; readonly code: string }[];
  /** Payments adjusted by returns, in the order decided. */
  readonly adjustments?: readonly {
    readonly return_id: string;
    readonly transaction_id: string;
    readonly customer_id: string;
    readonly offer_id: number;
    readonly previous_cashback: number;
    readonly cashback: number;
    readonly payment_date: string;
  }[];
  /**
   * Clawbacks of returns that arrived once their payment was confirmed (docs/concepts.md, Late
   * returns), in the order decided.
   */
  readonly clawbacks?: readonly {
    readonly return_id: string;
    readonly transaction_id: string;
    readonly customer_id: string;
    readonly offer_id: number;
    readonly amount: number;
  }[];
  /** Return errors, in the order decided. */
  readonly returnErrors?: readonly { readonly key: string; readonly code: string }[];
  /** Counts, when the result has them; `returns` when the replay took returns. */
  readonly summary?: {
    readonly transactions: number;
    readonly returns?: { readonly netCashback: string };
  };
}

/**
 * The options `replay` was given that the invariants depend on. The other options of `replay`
 * (`currency`, `operators`, `maxLatenessDays`, `asOf`, `lateReturns`, `clock`, `ids`) are
 * accepted and not read, so
 * `replay`'s options can be passed as they are; any other key is a TypeError.
 * @example
 * ```ts
 * const options: InvariantOptions = { timeZone: 'Europe/Paris', scale: 3, rounding: 'half-even' };
 * ```
 * @public
 */
export interface InvariantOptions {
  /**
   * IANA zone dates without offset are wall-clock time in, and payment days and the days returns
   * arrive are judged in.
   * @defaultValue `'UTC'`
   */
  readonly timeZone?: string;
  /**
   * Decimal places of cashback.
   * @defaultValue `2`
   */
  readonly scale?: number;
  /**
   * Rounding of cashback.
   * @defaultValue `'half-up'`
   */
  readonly rounding?: RoundingName;
}
