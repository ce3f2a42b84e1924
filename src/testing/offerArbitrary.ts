import fc from 'fast-check';
import { formatDay } from '../model/day.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { wholeNumber } from '../model/wholeNumber.js';
import { centsArbitrary } from './_internals/amounts.js';
import { conditionArbitrary } from './_internals/conditions.js';
import { dayNumbers } from './_internals/dates.js';
import { CATEGORIES, MERCHANT_IDS, OFFER_MERCHANTS, PLACES } from './_internals/pools.js';
import { sometimes, withoutUndefined } from './_internals/sometimes.js';
import { genderArbitrary, merchantNameArbitrary } from './_internals/variants.js';
import type { DayRange } from './DayRange.js';
import type { ChannelJson, FundingPeriodJson, OfferJson, RewardJson, ScopeJson } from './shapes.js';

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
  /**
   * Draw a `reward` instead of `discount` on about a third of the offers (docs/concepts.md,
   * Rewards): a percentage up to a `max_eligible_amount`, a fixed whole amount (valid at any
   * scale), or 1 to 4 tiers, `whole` or `marginal`, some at rate 0.
   * @defaultValue `true`
   */
  readonly rewards?: boolean;
  /**
   * Draw a `scope` instead of `merchant_name` on about a quarter of the offers (docs/concepts.md,
   * Scopes): names of `merchants`, merchant ids `m-1` to `m-9`, category codes `5411`, `5812`,
   * `5942`, `5541` (those transactions are drawn with), sometimes names excluded.
   * @defaultValue `true`
   */
  readonly scopes?: boolean;
  /**
   * Draw `channels` (`online`, `in_store` or both) on about a quarter of the offers.
   * @defaultValue `true`
   */
  readonly channels?: boolean;
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
  'rewards',
  'scopes',
  'channels',
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

/** A rate in [0, 100] with up to 2 decimals, 0 now and then. */
const tierRate = fc.oneof(
  { weight: 4, arbitrary: centsArbitrary(1, 3_000) },
  { weight: 1, arbitrary: fc.constant(0) },
);

/** Every reward shape; fixed amounts are whole, valid at every scale. */
const rewardArbitrary: fc.Arbitrary<RewardJson> = fc.oneof(
  fc
    .tuple(centsArbitrary(1, 10_000), sometimes(centsArbitrary(100, 30_000), 1))
    .map(
      ([rate, cap]): RewardJson =>
        withoutUndefined({ type: 'percent', rate, max_eligible_amount: cap }),
    ),
  fc.integer({ min: 1, max: 50 }).map((amount): RewardJson => ({ type: 'fixed', amount })),
  fc
    .tuple(
      fc.constantFrom<'whole' | 'marginal'>('whole', 'marginal'),
      fc.uniqueArray(fc.integer({ min: 1, max: 30_000 }), { maxLength: 3 }),
      centsArbitrary(1, 3_000),
      fc.array(tierRate, { minLength: 3, maxLength: 3 }),
    )
    .map(([mode, froms, first, rates]): RewardJson => {
      const starts = [...froms].sort((a, b) => a - b).map((c) => c / 100);
      return {
        type: 'tiers',
        mode,
        tiers: [
          { from: 0, rate: first },
          ...starts.map((from, i) => ({ from, rate: rates[i] ?? 0 })),
        ],
      };
    }),
);

/** A scope over the pools: names, ids or category codes, sometimes names excluded. */
function scopeArbitrary(names: fc.Arbitrary<string>): fc.Arbitrary<ScopeJson> {
  const list = <T>(a: fc.Arbitrary<T>) => fc.array(a, { minLength: 1, maxLength: 3 });
  return fc
    .record({
      merchants: sometimes(list(names), 1),
      merchant_ids: sometimes(list(fc.constantFrom(...MERCHANT_IDS)), 2),
      mcc: sometimes(list(fc.constantFrom(...CATEGORIES)), 1),
      exclude_merchants: sometimes(list(names), 3),
    })
    .map((s): ScopeJson => {
      const scope = withoutUndefined(s);
      const lists = (scope.merchants ?? []).length + (scope.mcc ?? []).length;
      // At least one of merchants, merchant_ids and mcc.
      return lists + (scope.merchant_ids ?? []).length > 0 ? scope : { ...scope, mcc: ['5411'] };
    });
}

const channelsArbitrary = fc.constantFrom<ChannelJson[]>(
  ['online'],
  ['in_store'],
  ['online', 'in_store'],
);

/** Where an offer pays and what: `merchant_name` or `scope`, `discount` or `reward`, `channels`. */
function placeAndReward(
  options: OfferArbitraryOptions,
  merchants: fc.Arbitrary<string>,
): fc.Arbitrary<Partial<OfferJson>> {
  const discount = fc.oneof(
    { weight: 3, arbitrary: centsArbitrary(1, 10_000) },
    centsArbitrary(1, 100),
  );
  return fc
    .record({
      merchant: merchants,
      scope:
        (options.scopes ?? true) ? sometimes(scopeArbitrary(merchants), 3) : fc.constant(undefined),
      discount,
      reward: (options.rewards ?? true) ? sometimes(rewardArbitrary, 2) : fc.constant(undefined),
      channels:
        (options.channels ?? true) ? sometimes(channelsArbitrary, 3) : fc.constant(undefined),
    })
    .map(({ merchant, scope, discount: d, reward, channels }) =>
      withoutUndefined({
        ...(scope === undefined ? { merchant_name: merchant } : { scope }),
        ...(reward === undefined ? { discount: d } : { reward }),
        channels,
      }),
    );
}

/**
 * Valid offers in the JSON shape `compileOffers` loads (`active` and the extensions
 * included, docs/concepts.md, Offers): merchant names from a small pool in spelling variants, discounts
 * with up to 2 decimals in (0, 100], age labels `A-B` / `A+`, genders, optional simple conditions,
 * with `funding` sometimes a `budget` and a `customer_cap`; and, unless switched off, scopes,
 * rewards of every shape and channels.
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
    place: placeAndReward(options, merchants),
    warranty: fc.integer({ min: 0, max: 60 }),
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
    const { range, place, ...rest } = b;
    const [from, to] = range[0] <= range[1] ? range : [range[1], range[0]];
    return withoutUndefined({
      ...place,
      ...rest,
      valid_from: formatDay(from),
      valid_to: formatDay(to),
      ...ext,
      ...withoutUndefined(limits),
      conditions: cond,
    }) as OfferJson;
  });
}
