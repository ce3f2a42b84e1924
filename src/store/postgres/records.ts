import type {
  ActivationRecord,
  CustomerRecord,
  PaymentRecord,
  StoredPayment,
  TransactionRecord,
} from '../records.js';
import type { StoredOutboxEvent } from '../Store.js';
import type { SqlRow } from './sql.js';

/** The columns of a transaction (table alias `t`) as `transactionRecord` reads them. */
export const TRANSACTION_COLUMNS =
  't.transaction_id, t.customer_id, t.source, t.date, t.day, t.amount::text AS amount, t.merchant_key, t.merchant_id, t.merchant_name, t.category_code, t.description, t.country, t.city, t.channel';

/** A stored transaction from its row; `location` left out when the row has none. */
export function transactionRecord(row: SqlRow): TransactionRecord {
  const record = {
    transaction_id: row.transaction_id as string,
    customer_id: row.customer_id as string,
    source: row.source as TransactionRecord['source'],
    date: row.date as string,
    day: row.day as string,
    amount: row.amount as string,
    merchant_key: row.merchant_key as string,
    merchant: {
      id: row.merchant_id as string,
      name: row.merchant_name as string,
      category_code: row.category_code as string,
    },
    description: row.description as string,
    ...(row.channel === null || row.channel === undefined
      ? {}
      : { channel: row.channel as TransactionRecord['channel'] }),
  };
  return row.country === null || row.country === undefined
    ? record
    : { ...record, location: { country: row.country as string, city: row.city as string } };
}

/** An activation from its row. */
export function activationRecord(row: SqlRow): ActivationRecord {
  return {
    customer_id: row.customer_id as string,
    offer_id: row.offer_id as number,
    date: row.date as string,
  };
}

/** A customer from its row. */
export function customerRecord(row: SqlRow): CustomerRecord {
  return {
    customer_id: row.customer_id as string,
    birthday: row.birthday as string,
    gender: row.gender as string,
    location: { country: row.country as string, city: row.city as string },
  };
}

/** The columns of a payment as `paymentRecord` reads them. */
export const PAYMENT_COLUMNS =
  'transaction_id, customer_id, offer_id::float8 AS offer_id, cashback_amount::text AS cashback_amount, payment_date, country, city, event_id, offer_revision';

/** A payment from its row. */
export function paymentRecord(row: SqlRow): PaymentRecord {
  return {
    transaction_id: row.transaction_id as string,
    customer_id: row.customer_id as string,
    offer_id: row.offer_id as number,
    cashback_amount: row.cashback_amount as string,
    payment_date: row.payment_date as string,
    country: row.country as string,
    city: row.city as string,
    event_id: row.event_id as string,
    offer_revision: row.offer_revision as number,
  };
}

/** A payment with what its clawbacks took and its confirmation, from its row. */
export function storedPayment(row: SqlRow): StoredPayment {
  return {
    ...paymentRecord(row),
    clawed_back_amount: row.clawed_back_amount as string,
    confirmed_event: (row.confirmed_event as string | null) ?? null,
  };
}

/** An outbox event from its row (`sequence` read as float8: a JavaScript number). */
export function outboxEvent(row: SqlRow): StoredOutboxEvent {
  return {
    id: row.id as string,
    type: row.type as StoredOutboxEvent['type'],
    payload: JSON.parse(row.payload as string) as StoredOutboxEvent['payload'],
    created_at: row.created_at as string,
    sequence: row.sequence as number,
  };
}

/**
 * The key a payment is listed by after its day: the transaction id in UTF-16BE, as hex. Byte
 * order of UTF-16BE is JavaScript's code-unit order (docs/stores.md, text order).
 */
export function orderKey(transactionId: string): string {
  return Buffer.from(transactionId, 'utf16le').swap16().toString('hex');
}
