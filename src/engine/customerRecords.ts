import { civilDate, parseDay } from '../model/day.js';
import { normaliseGender } from '../model/normalise.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { CustomerRecord } from '../store/records.js';

/**
 * The record a store keeps of a parsed customer.
 * @param c - a customer that passed screening
 * @returns its record
 */
export function customerRecord(c: ParsedCustomer): CustomerRecord {
  return {
    customer_id: c.customerId,
    birthday: c.birthday,
    gender: c.gender,
    location: c.location,
  };
}

/**
 * Stored customers as matching reads them, each converted once per record object: a store that
 * hands back the objects it keeps (the memory store) has each parsed once, any other once per
 * read. Either way the answer is the same.
 */
export class CustomerCache {
  private readonly parsed = new WeakMap<CustomerRecord, ParsedCustomer>();

  /**
   * @param r - a record as the store returned it
   * @returns its parsed form
   * @throws Error when the store returned an unreadable birthday
   */
  get(r: CustomerRecord): ParsedCustomer {
    let c = this.parsed.get(r);
    if (c === undefined) {
      const day = parseDay(r.birthday);
      if (day === undefined) {
        throw new Error(`Store returned customer '${r.customer_id}' with birthday '${r.birthday}'`);
      }
      const [y, m, d] = civilDate(day);
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
