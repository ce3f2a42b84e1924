import type { Purchase } from '../matching/history.js';
import { parseDateTime, type WallClock } from '../model/dateTime.js';
import { _civil, parseDay } from '../model/day.js';
import { type ExactAmount, parseAmount } from '../model/money.js';
import { normaliseGender } from '../model/normalise.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { CustomerRecord, TransactionRecord } from '../store/records.js';

/** The record a store keeps of a parsed customer. @internal */
export function _customerRecord(c: ParsedCustomer): CustomerRecord {
  return {
    customer_id: c.customerId,
    birthday: c.birthday,
    gender: c.gender,
    location: c.location,
  };
}

/**
 * A stored customer as matching reads it. Parsed customers are kept per record object: a store
 * that hands out the objects it holds (the memory store) converts each customer once.
 * @internal
 */
export class _CustomerCache {
  private readonly parsed = new WeakMap<CustomerRecord, ParsedCustomer>();

  get(r: CustomerRecord): ParsedCustomer {
    let c = this.parsed.get(r);
    if (c === undefined) {
      const day = parseDay(r.birthday);
      if (day === undefined) {
        throw new Error(`Store returned customer '${r.customer_id}' with birthday '${r.birthday}'`);
      }
      const [y, m, d] = _civil(day);
      c = {
        customerId: r.customer_id,
        birthday: r.birthday,
        birthYear: y,
        birthMonthDay: m * 100 + d,
        gender: r.gender,
        genderKey: normaliseGender(r.gender),
        location: r.location,
      };
      this.parsed.set(r, c);
    }
    return c;
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** `YYYY-MM-DDTHH:mm:ss.SSSSSSSSS`: text order is time order. @internal */
export function _storedDate(when: WallClock): string {
  const inDay = when.seconds - when.day * 86_400;
  return `${when.dayText}T${pad(when.hour, 2)}:${pad(Math.floor(inDay / 60) % 60, 2)}:${pad(inDay % 60, 2)}.${pad(when.nanos, 9)}`;
}

/** The record a store keeps of an accepted transaction. @internal */
export function _transactionRecord(
  tx: ParsedTransaction,
  source: TransactionRecord['source'],
): TransactionRecord {
  const record = {
    transaction_id: tx.transactionId,
    customer_id: tx.customerId,
    source,
    date: _storedDate(tx.when),
    day: tx.when.dayText,
    amount: tx.amount.text,
    merchant_key: tx.merchantKey,
    merchant: tx.merchant,
    description: tx.description,
  };
  return tx.location === undefined ? record : { ...record, location: tx.location };
}

/** A stored transaction as a purchase for lookbacks and `history` facts. @internal */
export function _purchaseOfRecord(r: TransactionRecord, timeZone: string): Purchase {
  // The stored date has no zone designator, so it parses as the wall-clock time it is.
  const when = parseDateTime(r.date, timeZone);
  const amount = parseAmount(r.amount);
  if (typeof when === 'string' || typeof amount === 'string') {
    throw new Error(
      `Store returned transaction '${r.transaction_id}' with an unreadable date or amount`,
    );
  }
  return { seconds: when.seconds, nanos: when.nanos, day: when.day, amount: amount as ExactAmount };
}
