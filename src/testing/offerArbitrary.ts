import fc from 'fast-check';
import { formatDay } from '../model/day.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { wholeNumber } from '../model/wholeNumber.js';
import { centsArbitrary } from './_internals/amounts.js';
import { conditionArbitrary } from './_internals/conditions.js';
import { dayNumbers } from './_internals/dates.js';
import { OFFER_MERCHANTS, PLACES } from './_internals/pools.js';
import { sometimes, withoutUndefined } from './_internals/sometimes.js';
import { genderArbitrary, merchantNameArbitrary } from './_internals/variants.js';
import type { DayRange } from './DayRange.js';
import type { FundingPeriodJson, OfferJson } from './shapes.js';

/**
 * Options of {@link offerArbitrary}. Every field is optional.
 * @example
 * ```ts
 * offerArbitrary({ merchants: ['Acme'], offerIds: { min: 1, max: 9 }, conditions: false });
 * ```
 * @public
 */
export interface OfferArbitraryOptions {
  /**
   * Merchant names offers are drawn at.
   * @defaultValue `['Coffee House', 'Book Nook', 'Fuel Stop', 'Green Grocer']`
   */
  readonly merchants?: readonly string[];
  /**
   * Spell merchant names in variants with the same match key (case, padding, doubled,
   * non-breaking or full-width characters).
   * @defaultValue `true`
   */
  readonly merchantVariants?: boolean;
  /**
   * Range of `offer_id`, inclusive.
   * @defaultValue `{ min: 1, max: 50 }`
   */
  readonly offerIds?: { readonly min: number; readonly max: number };
  /**
   * Days `valid_from` and `valid_to` are drawn from.
   * @defaultValue `{ from: '2025-01-01', to: '2025-12-31' }`
   */
  readonly validity?: DayRange;
  /**
   * Draw the extensions `active`, `min_amount`, `max_cashback`, `audience`, `lookback_days`.
   * @defaultValue `true`
   */
  readonly extensions?: boolean;
  /**
   * Draw `budget` and `customer_cap` (docs/concepts.md, Funding controls), each on about a
   * quarter of the offers: budgets small enough to run out within a scenario (0.01 to 30, some
   * with a third decimal that rounds down; half of them with `on_exhaust`, `partial` or `skip`),
   * caps by amount, by count (1 to 3) or both, every period. Off by default, so that a replay under test that cannot keep budgets (a store
   * without their counters, a replay split by customer) is not failed by them.
   * @defaultValue `false`
   */
  readonly funding?: boolean;
  /**
   * Draw `conditions` over `transaction.hour`, `transaction.weekday`, `transaction.amount`,
   * `customer.location.city` and `history.merchant_purchases`.
   * @defaultValue `true`
   */
  readonly conditions?: boolean;
  /**
   * Cities conditions compare customers' cities with.
   * @defaultValue `['Paris', 'Lyon', 'Berlin', 'Madrid']`
   */
  readonly cities?: readonly string[];
  /**
   * Genders offers are restricted to.
   * @defaultValue `['male', 'female', 'other']`
   */
  readonly genders?: readonly string[];
}

const KEYS: readonly (keyof OfferArbitraryOptions)[] = [
  'merchants',
  'merchantVariants',
  'offerIds',
  'validity',
  'extensions',
  'funding',
  'conditions',
  'cities',
  'genders',
];

/** An age label: `A-B` (A ≤ B) or `A+`. */
const ageLabel = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 60 }))
    .map(([a, span]) => `${a}-${a + span}`),
  fc.integer({ min: 0, max: 70 }).map((a) => `${a}+`),
);

const period = fc.constantFrom<FundingPeriodJson>('offer', 'day', 'week', 'month');

/** A limit's amount: mostly cents up to 30, sometimes with a third decimal (rounded down). */
const limitAmount = fc.oneof(
  { weight: 4, arbitrary: centsArbitrary(1, 3_000) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 30_000 }).map((m) => (m / 1000).toFixed(3)) },
);

/** `budget` and `customer_cap`, each sometimes. */
const fundingArbitrary = fc.record({
  budget: sometimes(
    fc
      .tuple(
        limitAmount,
        sometimes(period, 1),
        sometimes(fc.constantFrom<'partial' | 'skip'>('partial', 'skip'), 1),
      )
      .map(([amount, p, onExhaust]) =>
        withoutUndefined({ amount, period: p, on_exhaust: onExhaust }),
      ),
    3,
  ),
  customer_cap: sometimes(
    fc
      .tuple(
        fc.constantFrom('amount', 'count', 'both'),
        limitAmount,
        fc.integer({ min: 1, max: 3 }),
        period,
      )
      .map(([kind, amount, count, p]) => ({
        ...(kind === 'count' ? {} : { amount }),
        ...(kind === 'amount' ? {} : { count }),
        period: p,
      })),
    3,
  ),
});

/**
 * Valid offers in the JSON shape `compileOffers` loads (`active` and the extensions
 * included, docs/concepts.md, Offers): merchant names from a small pool in spelling variants, discounts
 * with up to 2 decimals in (0, 100], age labels `A-B` / `A+`, genders, optional simple conditions,
 * with `funding` sometimes a `budget` and a `customer_cap`.
 * Offer ids are drawn from a range; a set of offers needs unique ids (see the example).
 * @param options - pools and ranges
 * @returns an arbitrary of offers
 * @throws TypeError for an unknown option; RangeError for a bad id or day range
 * @example
 * ```ts
 * fc.assert(fc.property(
 *   fc.uniqueArray(offerArbitrary(), { selector: (o) => o.offer_id, maxLength: 5 }),
 *   (offers) => { compileOffers(offers); },
 * ));
 * ```
 * @public
 */
export function offerArbitrary(options: OfferArbitraryOptions = {}): fc.Arbitrary<OfferJson> {
  assertKnownKeys(options, KEYS, 'offerArbitrary options');
  const ids = options.offerIds ?? { min: 1, max: 50 };
  assertKnownKeys(ids, ['min', 'max'], 'offerArbitrary options.offerIds');
  const min = wholeNumber(ids.min, 'offerIds.min', { min: 1 });
  wholeNumber(ids.max, 'offerIds.max', { min });
  const days = dayNumbers(options.validity ?? { from: '2025-01-01', to: '2025-12-31' }, 'validity');
  const merchants = merchantNameArbitrary(
    options.merchants ?? OFFER_MERCHANTS,
    options.merchantVariants ?? true,
  );
  const genders = options.genders ?? ['male', 'female', 'other'];
  const base = fc.record({
    offer_id: fc.integer(ids),
    name: fc.constantFrom('Spring deal', 'Cashback', 'Welcome back', ''),
    merchant_name: merchants,
    warranty: fc.integer({ min: 0, max: 60 }),
    discount: fc.oneof({ weight: 3, arbitrary: centsArbitrary(1, 10_000) }, centsArbitrary(1, 100)),
    // The whole range often, so that offers meet transactions.
    range: fc.oneof(
      fc.constant<[number, number]>([days.min, days.max]),
      fc.tuple(fc.integer(days), fc.integer(days)),
    ),
    age: sometimes(fc.array(ageLabel, { maxLength: 2 }), 1),
    gender: sometimes(fc.array(genderArbitrary(genders), { maxLength: 2 }), 1),
    category_name: sometimes(fc.constantFrom('Food', 'Books', 'Fuel'), 1),
  });
  const extensions =
    (options.extensions ?? true)
      ? fc.record({
          active: sometimes(
            fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, fc.constant(false)),
            1,
          ),
          min_amount: sometimes(centsArbitrary(1, 20_000), 3),
          max_cashback: sometimes(centsArbitrary(1, 2_000), 2),
          audience: sometimes(
            fc.constantFrom('all', 'new', 'returning') as fc.Arbitrary<'all' | 'new' | 'returning'>,
            2,
          ),
          lookback_days: sometimes(
            fc.oneof(fc.constantFrom(30, 90, 365), fc.integer({ min: 0, max: 400 })),
            2,
          ),
        })
      : fc.constant({});
  const conditions =
    (options.conditions ?? true)
      ? sometimes(conditionArbitrary(options.cities ?? PLACES.map((p) => p.city)), 3)
      : fc.constant(undefined);
  const funding = (options.funding ?? false) ? fundingArbitrary : fc.constant({});
  return fc.tuple(base, extensions, funding, conditions).map(([b, ext, limits, cond]) => {
    const { range, ...rest } = b;
    const [from, to] = range[0] <= range[1] ? range : [range[1], range[0]];
    return withoutUndefined({
      ...rest,
      valid_from: formatDay(from),
      valid_to: formatDay(to),
      ...ext,
      ...withoutUndefined(limits),
      conditions: cond,
    }) as OfferJson;
  });
}
