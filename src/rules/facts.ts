/**
 * The facts a condition can read, and their types.
 *
 * Facts have known types so that a condition comparing `transaction.amount` with a string is
 * rejected when offers load instead of being quietly false for every transaction
 * (see docs/concepts.md, The condition language).
 */

/** Location as conditions see it. @public */
export interface LocationFacts {
  /** Country as sent by the partner. */
  readonly country: string;
  /** City as sent by the partner. */
  readonly city: string;
}

/** The `transaction` fact. @public */
export interface TransactionFacts {
  /** Partner transaction id (trimmed). */
  readonly transaction_id: string;
  /** Customer id (trimmed). */
  readonly customer_id: string;
  /** Free-text description (may be empty). */
  readonly description: string;
  /** Wall-clock date-time in the engine's time zone, `YYYY-MM-DDTHH:mm:ss.SSS`. */
  readonly date: string;
  /** Calendar day in the engine's time zone, `YYYY-MM-DD`. */
  readonly day: string;
  /** Amount as a number (exact decimal arithmetic happens elsewhere). */
  readonly amount: number;
  /** ISO weekday of `day`: 1 Monday … 7 Sunday. */
  readonly weekday: number;
  /** Hour of the wall-clock time, 0–23. */
  readonly hour: number;
  /** Merchant details. */
  readonly merchant: {
    readonly id: string;
    readonly name: string;
    readonly category_code: string;
  };
  /** Where the purchase happened. */
  readonly location: LocationFacts;
}

/** The `customer` fact. @public */
export interface CustomerFacts {
  /** Customer id (trimmed). */
  readonly customer_id: string;
  /** Birthday, `YYYY-MM-DD`. */
  readonly birthday: string;
  /** Gender, trimmed and lower-cased. */
  readonly gender: string;
  /** Age in whole years on the transaction's day. */
  readonly age: number;
  /** Where the customer lives. */
  readonly location: LocationFacts;
}

/**
 * The `history` fact: aggregates over the customer's earlier purchases at the offer's merchant,
 * within the offer's lookback window (`lookback_days`, default 365).
 * @public
 */
export interface HistoryFacts {
  /** Number of earlier purchases at this merchant within the lookback. */
  readonly merchant_purchases: number;
  /** Sum of their amounts, as a number. */
  readonly merchant_spend: number;
  /** Days from the last such purchase to this transaction's day; `undefined` when there is none. */
  readonly days_since_last_merchant_purchase: number | undefined;
}

/**
 * What a compiled condition is evaluated against. `history` may be a lazy getter: it is read
 * only by conditions that use it.
 * @public
 */
export interface FactContext {
  /** The transaction being decided. */
  readonly transaction: TransactionFacts;
  /** Its customer, with `age` computed on the transaction's day. */
  readonly customer: CustomerFacts;
  /** Aggregates of earlier purchases at the merchant, within the offer's lookback. */
  readonly history: HistoryFacts;
}

/** The type of one fact value, as the load-time type check knows it. @public */
export type FactType = 'string' | 'number' | 'number?';

/** A tree of known facts: leaves are types, inner nodes are objects. @public */
export interface FactSchema {
  /** A fact or property name: its type, or the schema of its properties. */
  readonly [name: string]: FactType | FactSchema;
}

const location: FactSchema = { country: 'string', city: 'string' };

/**
 * Every fact a condition may read, with its type. `number?` may be `undefined`.
 * @public
 */
export const FACT_SCHEMA: FactSchema = {
  transaction: {
    transaction_id: 'string',
    customer_id: 'string',
    description: 'string',
    date: 'string',
    day: 'string',
    amount: 'number',
    weekday: 'number',
    hour: 'number',
    merchant: { id: 'string', name: 'string', category_code: 'string' },
    location,
  },
  customer: {
    customer_id: 'string',
    birthday: 'string',
    gender: 'string',
    age: 'number',
    location,
  },
  history: {
    merchant_purchases: 'number',
    merchant_spend: 'number',
    days_since_last_merchant_purchase: 'number?',
  },
};
