import type { Purchase } from '../matching/history.js';
import { parseDateTime, type WallClock } from '../model/dateTime.js';
import { formatDay } from '../model/day.js';
import { parseAmount } from '../model/money.js';
import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { TransactionRecord } from '../store/records.js';

/** Character codes of `0000-00-00T00:00:00.000000000`, the template of a stored date. */
const DATE_TEMPLATE = [
  48, 48, 48, 48, 45, 48, 48, 45, 48, 48, 84, 48, 48, 58, 48, 48, 58, 48, 48, 46, 48, 48, 48, 48,
  48, 48, 48, 48, 48,
];

function putDigits(codes: number[], at: number, value: number, width: number): void {
  let n = value;
  for (let i = at + width - 1; i >= at; i--) {
    codes[i] = 48 + (n % 10);
    n = Math.floor(n / 10);
  }
}

/**
 * `THH:mm:ss.000000000` by second of the day, each made on first use. The table is allocated
 * whole on first use: filled out of order from empty, an array turns into a slow dictionary.
 */
let WHOLE_SECONDS: (string | undefined)[] | undefined;

function wholeSecond(inDay: number): string {
  WHOLE_SECONDS ??= new Array<string | undefined>(86_400).fill(undefined);
  let text = WHOLE_SECONDS[inDay];
  if (text === undefined) {
    const hh = Math.floor(inDay / 3600);
    const mm = Math.floor(inDay / 60) % 60;
    const ss = inDay % 60;
    const two = (n: number) => (n < 10 ? `0${n}` : String(n));
    text = `T${two(hh)}:${two(mm)}:${two(ss)}.000000000`;
    WHOLE_SECONDS[inDay] = text;
  }
  return text;
}

/**
 * `YYYY-MM-DDTHH:mm:ss.SSSSSSSSS`: text order is time order. A date without a fraction of a
 * second (most of them) is the day's text joined to the second's, both shared: one small pair per
 * transaction. Any other is written as character codes: from a template literal it would be a
 * rope of a dozen pieces, several times the bytes of a flat string (docs/benchmarks.md).
 * @param when - a parsed date-time
 * @returns the stored text
 */
export function storedDate(when: WallClock): string {
  const inDay = when.seconds - when.day * 86_400;
  if (when.nanos === 0) return formatDay(when.day) + wholeSecond(inDay);
  const monthDay = when.monthDay;
  const codes = DATE_TEMPLATE.slice();
  putDigits(codes, 0, when.year, 4);
  putDigits(codes, 5, Math.floor(monthDay / 100), 2);
  putDigits(codes, 8, monthDay % 100, 2);
  putDigits(codes, 11, when.hour, 2);
  putDigits(codes, 14, Math.floor(inDay / 60) % 60, 2);
  putDigits(codes, 17, inDay % 60, 2);
  putDigits(codes, 20, when.nanos, 9);
  return String.fromCharCode(...codes);
}

/**
 * Texts of amounts in cents (two decimals, below 2^31 units), shared between records: card
 * amounts repeat, and a text per transaction was a share of storing one (docs/benchmarks.md).
 * Bounded, and emptied when full.
 */
const CENT_TEXTS = new Map<number, string>();
const CENT_TEXTS_MAX = 65_536;

function amountText(amount: ParsedTransaction['amount']): string {
  const units = amount.units;
  if (amount.scale !== 2 || !(units >= 0 && units < 2_147_483_648)) return amount.text;
  let text = CENT_TEXTS.get(units);
  if (text === undefined) {
    text = amount.text;
    if (CENT_TEXTS.size >= CENT_TEXTS_MAX) CENT_TEXTS.clear();
    CENT_TEXTS.set(units, text);
  }
  return text;
}

/**
 * The record a store keeps of an accepted transaction.
 * @param tx - a transaction that passed screening
 * @param source - history or submitted
 * @returns its record
 */
export function transactionRecord(
  tx: ParsedTransaction,
  source: TransactionRecord['source'],
): TransactionRecord {
  // formatDay shares the texts of recent days; dayText would make a new string per transaction.
  const day = formatDay(tx.when.day);
  const date = storedDate(tx.when);
  return {
    transaction_id: tx.transactionId,
    customer_id: tx.customerId,
    source,
    date,
    day,
    amount: amountText(tx.amount),
    merchant_key: tx.merchantKey,
    merchant: tx.merchant,
    description: tx.description,
    // Absent for a history item sent without one (left `undefined`, one object shape for all).
    location: tx.location,
    channel: tx.channel,
  };
}

/**
 * Stored transactions as purchases for lookbacks and `history` facts, kept per record object: a
 * store that hands out the objects it holds (the memory store) has each date parsed once; any
 * other costs a parse per record object read.
 */
export class PurchaseCache {
  private readonly purchases = new WeakMap<TransactionRecord, Purchase>();
  constructor(private readonly timeZone: string) {}

  /**
   * @param r - a record as the store returned it
   * @returns its purchase
   * @throws Error when the store returned an unreadable date or amount
   */
  get(r: TransactionRecord): Purchase {
    let p = this.purchases.get(r);
    if (p === undefined) {
      // The stored date has no zone designator, so it parses as the wall-clock time it is.
      const when = parseDateTime(r.date, this.timeZone);
      const amount = parseAmount(r.amount);
      if (typeof when === 'string' || typeof amount === 'string') {
        throw new Error(
          `Store returned transaction '${r.transaction_id}' with an unreadable date or amount`,
        );
      }
      p = { seconds: when.seconds, nanos: when.nanos, day: when.day, amount };
      this.purchases.set(r, p);
    }
    return p;
  }
}
