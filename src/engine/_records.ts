import type { Purchase } from '../matching/history.js';
import { parseDateTime, type WallClock } from '../model/dateTime.js';
import { civilDate as _civil, formatDay, parseDay } from '../model/day.js';
import { parseAmount } from '../model/money.js';
import { normaliseGender } from '../model/normalise.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { CustomerRecord, TransactionRecord } from '../store/records.js';

/**
 * A customer record the engine made from a parsed customer, carrying that parsed form in a
 * private field: JSON, spreading and `Object.keys` see only the record's four fields, so a store
 * that copies or serialises it keeps the plain record. A store that hands back the object it was
 * given (the memory store) hands back the parsed form with it.
 */
class StoredCustomer implements CustomerRecord {
  readonly customer_id: string;
  readonly birthday: string;
  readonly gender: string;
  readonly location: CustomerRecord['location'];
  readonly #parsed: ParsedCustomer;

  constructor(c: ParsedCustomer) {
    this.customer_id = c.customerId;
    this.birthday = c.birthday;
    this.gender = c.gender;
    this.location = c.location;
    this.#parsed = c;
  }

  /** The parsed form of `r` when the engine made it, else `undefined`. */
  static parsedOf(r: CustomerRecord): ParsedCustomer | undefined {
    return #parsed in r ? (r as StoredCustomer).#parsed : undefined;
  }
}

/** The record a store keeps of a parsed customer. @internal */
export function _customerRecord(c: ParsedCustomer): CustomerRecord {
  return new StoredCustomer(c);
}

/**
 * A stored customer as matching reads it. A record the engine made carries its parsed form; any
 * other is converted once per record object (a store that returns new objects costs a parse per
 * read, nothing more).
 * @internal
 */
export class _CustomerCache {
  private readonly parsed = new WeakMap<CustomerRecord, ParsedCustomer>();

  get(r: CustomerRecord): ParsedCustomer {
    let c = StoredCustomer.parsedOf(r) ?? this.parsed.get(r);
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

/** Character codes of a stored date; `-`, `T`, `:` and `.` stay in place between calls. */
const DATE_CODES = new Uint16Array([
  48, 48, 48, 48, 45, 48, 48, 45, 48, 48, 84, 48, 48, 58, 48, 48, 58, 48, 48, 46, 48, 48, 48, 48,
  48, 48, 48, 48, 48,
]);

function putDigits(at: number, value: number, width: number): void {
  let n = value;
  for (let i = at + width - 1; i >= at; i--) {
    DATE_CODES[i] = 48 + (n % 10);
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
 * second (most of them) is the day's text joined to the second's, both shared: one 32-byte pair
 * per transaction. Any other is written as character codes: from a template literal it would be
 * a rope of a dozen pieces (measured: 314 bytes each against 56 flat).
 * @internal
 */
export function _storedDate(when: WallClock): string {
  const inDay = when.seconds - when.day * 86_400;
  if (when.nanos === 0) return formatDay(when.day) + wholeSecond(inDay);
  const monthDay = when.monthDay;
  putDigits(0, when.year, 4);
  putDigits(5, Math.floor(monthDay / 100), 2);
  putDigits(8, monthDay % 100, 2);
  putDigits(11, when.hour, 2);
  putDigits(14, Math.floor(inDay / 60) % 60, 2);
  putDigits(17, inDay % 60, 2);
  putDigits(20, when.nanos, 9);
  return String.fromCharCode.apply(null, DATE_CODES as unknown as number[]);
}

/**
 * Texts of amounts in cents (two decimals, below 2^31 units), shared between records: card
 * amounts repeat, and a text per transaction was a twentieth of storing one and 24 of its bytes.
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

/** The record a store keeps of an accepted transaction. @internal */
export function _transactionRecord(
  tx: ParsedTransaction,
  source: TransactionRecord['source'],
): TransactionRecord {
  // formatDay shares the texts of recent days; dayText would make a new string per transaction.
  const day = formatDay(tx.when.day);
  const date = _storedDate(tx.when);
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
  };
}

/**
 * Stored transactions as purchases for lookbacks and `history` facts, kept per record object: a
 * store that hands out the objects it holds (the memory store) has each date parsed once.
 * @internal
 */
export class _PurchaseCache {
  private readonly purchases = new WeakMap<TransactionRecord, Purchase>();
  constructor(private readonly timeZone: string) {}

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
