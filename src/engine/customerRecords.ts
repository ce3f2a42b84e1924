import { _civil, parseDay } from '../model/day.js';
import { normaliseGender } from '../model/normalise.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { CustomerRecord } from '../store/records.js';

/**
 * A customer record the engine made from a parsed customer, carrying that parsed form in a
 * private field: JSON, spreading and `Object.keys` see only the record's four fields, so a store
 * that copies or serialises it keeps the plain record. A store that hands back the object it was
 * given (the memory store) hands back the parsed form with it; any other store costs one parse per
 * record object read (`CustomerCache`), never a different answer.
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

/**
 * The record a store keeps of a parsed customer.
 * @param c - a customer that passed screening
 * @returns its record
 */
export function customerRecord(c: ParsedCustomer): CustomerRecord {
  return new StoredCustomer(c);
}

/**
 * Stored customers as matching reads them. A record the engine made carries its parsed form; any
 * other is converted once per record object.
 */
export class CustomerCache {
  private readonly parsed = new WeakMap<CustomerRecord, ParsedCustomer>();

  /**
   * @param r - a record as the store returned it
   * @returns its parsed form
   * @throws Error when the store returned an unreadable birthday
   */
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
