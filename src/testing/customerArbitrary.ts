import fc from 'fast-check';
import { assertKnownKeys } from '../model/knownKeys.js';
import { birthdayArbitrary } from './_internals/dates.js';
import { CUSTOMER_IDS, GENDERS, PLACES } from './_internals/pools.js';
import { genderArbitrary } from './_internals/variants.js';
import type { DayRange } from './DayRange.js';
import type { CustomerJson } from './shapes.js';

/**
 * Options of {@link customerArbitrary}. Every field is optional.
 * @example
 * ```ts
 * customerArbitrary({ customerIds: ['alice', 'bob'], birthdays: { from: '2000-01-01', to: '2004-12-31' } });
 * ```
 * @public
 */
export interface CustomerArbitraryOptions {
  /**
   * Customer ids, drawn from this pool so that transactions can refer to them.
   * @defaultValue `['c1', 'c2', 'c3', 'c4', 'c5', 'c6']`
   */
  readonly customerIds?: readonly string[];
  /**
   * Days birthdays are drawn from; 29 February of the leap years inside is drawn often.
   * @defaultValue `{ from: '1940-01-01', to: '2012-12-31' }`
   */
  readonly birthdays?: DayRange;
  /**
   * Genders, sent in spelling variants (case, padding).
   * @defaultValue `['male', 'female', 'other']`
   */
  readonly genders?: readonly string[];
  /**
   * Places customers live in.
   * @defaultValue Paris, Lyon (FR), Berlin (DE), Madrid (ES)
   */
  readonly places?: readonly { readonly country: string; readonly city: string }[];
}

const KEYS: readonly (keyof CustomerArbitraryOptions)[] = [
  'customerIds',
  'birthdays',
  'genders',
  'places',
];

/**
 * Valid customers (docs/concepts.md, Input rules): ids from a pool, birthdays including 29 February, genders in
 * spelling variants, a location. Several customers with one id in one request are all rejected
 * (docs/decisions.md, Outcomes), so draw a set with unique ids.
 * @param options - pools and ranges
 * @returns an arbitrary of customers
 * @throws TypeError for an unknown option; RangeError for empty pools or a bad day range
 * @example
 * ```ts
 * const customers = fc.uniqueArray(customerArbitrary(), { selector: (c) => c.customer_id });
 * ```
 * @public
 */
export function customerArbitrary(
  options: CustomerArbitraryOptions = {},
): fc.Arbitrary<CustomerJson> {
  assertKnownKeys(options, KEYS, 'customerArbitrary options');
  const ids = options.customerIds ?? CUSTOMER_IDS;
  const places = options.places ?? PLACES;
  if (ids.length === 0 || places.length === 0)
    throw new RangeError('customerIds and places must not be empty');
  return fc.record({
    customer_id: fc.constantFrom(...ids),
    birthday: birthdayArbitrary(options.birthdays ?? { from: '1940-01-01', to: '2012-12-31' }),
    gender: genderArbitrary(options.genders ?? GENDERS),
    location: fc.constantFrom(...places).map((p) => ({ country: p.country, city: p.city })),
  });
}
