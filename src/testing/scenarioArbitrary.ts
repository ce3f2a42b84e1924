import fc from 'fast-check';
import { formatDay } from '../model/day.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import { wholeNumber } from '../model/wholeNumber.js';
import {
  CUSTOMER_CORRUPTIONS,
  corrupt,
  HISTORY_REQUIRED,
  TRANSACTION_REQUIRED,
} from './_internals/corrupt.js';
import { dayNumbers } from './_internals/dates.js';
import { CUSTOMER_IDS, OFFER_MERCHANTS } from './_internals/pools.js';
import { revisedOffersArbitrary } from './_internals/revisions.js';
import { kindArbitrary, realise, slotArbitrary } from './_internals/slots.js';
import { customerArbitrary } from './customerArbitrary.js';
import type { DayRange } from './DayRange.js';
import { historyTransactionArbitrary } from './historyTransactionArbitrary.js';
import { offerArbitrary } from './offerArbitrary.js';
import { returnsArbitrary } from './returnsArbitrary.js';
import type { OfferJson } from './shapes.js';
import { transactionArbitrary } from './transactionArbitrary.js';

/**
 * A whole data set for `replay`. Items other than offers may be invalid on purpose.
 * @example
 * ```ts
 * const [scenario] = fc.sample(scenarioArbitrary(), 1);
 * const result = replay(scenario);
 * ```
 * @public
 */
export interface Scenario {
  /** Valid offers with unique `offer_id`s (`compileOffers` loads all or nothing). */
  offers: OfferJson[];
  /** Customers, some invalid. */
  customers: unknown[];
  /** History transactions, some invalid, unknown-customer or duplicate. */
  history: unknown[];
  /** Submitted transactions, some invalid, unknown-customer or duplicate. */
  transactions: unknown[];
  /** Returns of the history and transactions (see {@link returnsArbitrary}); only with `maxReturns`. */
  returns?: unknown[];
  /**
   * The offers reloaded with changed terms between requests, for an engine; only with
   * `revisions`. `replay` has one offer set: give it the scenario without this field.
   */
  revision?: ScenarioRevision;
}

/**
 * The scenario's offers as an operator reloads them (docs/concepts.md, Offer revisions): the same
 * ids, some with changed terms, loaded before the return at `beforeReturn`. A payment keeps the
 * revision that decided it, so returns after the reload still work payments decided before it out
 * with the first terms: an engine given the reload answers them as `replay` without it does.
 * @example
 * ```ts
 * const [{ revision, ...data }] = fc.sample(scenarioArbitrary({ maxReturns: 5, revisions: true }), 1);
 * replay(data); // replay has one offer set
 * ```
 * @public
 */
export interface ScenarioRevision {
  /** The whole offer set as reloaded (`engine.upsertOffers`), in the same order. */
  offers: OfferJson[];
  /**
   * The index in `returns` of the first return that comes after the reload (0 to
   * `returns.length`). An engine reloads once the transactions before that return (in the
   * merge of the two lists) are added; transactions that come later are decided with the new
   * terms, which `replay` cannot do, so a test that compares with `replay` reloads once the last
   * transaction is added, before the first return from this index on that comes after it.
   */
  beforeReturn: number;
}

/**
 * Options of {@link scenarioArbitrary}. Every field is optional.
 * @example
 * ```ts
 * // Clean data: no invalid items, unknown customers or duplicates.
 * scenarioArbitrary({ invalidRate: 0, unknownCustomerRate: 0, duplicateRate: 0 });
 * ```
 * @public
 */
export interface ScenarioArbitraryOptions {
  /**
   * Merchants offers are at; transactions are also drawn at `'Corner Shop'`, which has none.
   * @defaultValue `['Coffee House', 'Book Nook', 'Fuel Stop', 'Green Grocer']`
   */
  readonly merchants?: readonly string[];
  /**
   * Ids of the customers registered, one customer each; transactions refer to them.
   * @defaultValue `['c1', 'c2', 'c3', 'c4', 'c5', 'c6']`
   */
  readonly customerIds?: readonly string[];
  /**
   * Days of offers' validity and of transactions; history covers the year before too.
   * @defaultValue `{ from: '2025-01-01', to: '2025-12-31' }`
   */
  readonly dates?: DayRange;
  /**
   * Days customers' birthdays are drawn from. A range that reaches into `dates` draws customers
   * not born yet on some transactions' days, who earn nothing.
   * @defaultValue `{ from: '1940-01-01', to: '2012-12-31' }`
   */
  readonly birthdays?: DayRange;
  /**
   * Most offers.
   * @defaultValue `6`
   */
  readonly maxOffers?: number;
  /**
   * Most history transactions.
   * @defaultValue `12`
   */
  readonly maxHistory?: number;
  /**
   * Most submitted transactions.
   * @defaultValue `20`
   */
  readonly maxTransactions?: number;
  /**
   * Share of invalid customers, history and submitted transactions (a missing field, an
   * impossible date such as 2025-02-30, a negative amount, a non-object…).
   * @defaultValue `0.1`
   */
  readonly invalidRate?: number;
  /**
   * Share of history and submitted transactions of customers no one registered.
   * @defaultValue `0.1`
   */
  readonly unknownCustomerRate?: number;
  /**
   * Share of history and submitted transactions that reuse the id of an earlier one (submitted
   * ones also reuse history ids), sometimes padded with spaces; also the share of customers sent
   * twice in the request (every copy is then rejected).
   * @defaultValue `0.1`
   */
  readonly duplicateRate?: number;
  /**
   * Dates sometimes carry `Z` or an offset.
   * @defaultValue `true`
   */
  readonly offsets?: boolean;
  /**
   * Amounts with many decimals, huge amounts and arbitrary doubles, besides cents.
   * @defaultValue `true`
   */
  readonly wideAmounts?: boolean;
  /**
   * Offers sometimes have `conditions`.
   * @defaultValue `true`
   */
  readonly conditions?: boolean;
  /**
   * Offers sometimes have a `budget` and a `customer_cap` (see `offerArbitrary`'s `funding`),
   * small enough to run out within the scenario.
   * @defaultValue `false`
   */
  readonly funding?: boolean;
  /**
   * Most returns (drawn by {@link returnsArbitrary} with its default rates); above 0 the scenario
   * has `returns`.
   * @defaultValue `0`: no `returns`
   */
  readonly maxReturns?: number;
  /**
   * The scenario has a `revision`: its offers reloaded with changed terms (`discount`,
   * `min_amount`, `max_cashback`, `warranty`) before one of its returns.
   * @defaultValue `false`
   */
  readonly revisions?: boolean;
}

function rate(value: number | undefined, name: string): number {
  const r = value ?? 0.1;
  if (!(r >= 0 && r <= 1)) throw new RangeError(`${name} must be between 0 and 1, got ${r}`);
  return r;
}

function size(value: number | undefined, fallback: number, name: string): number {
  return wholeNumber(value ?? fallback, name);
}

const KEYS: readonly (keyof ScenarioArbitraryOptions)[] = [
  'merchants',
  'customerIds',
  'dates',
  'birthdays',
  'maxOffers',
  'maxHistory',
  'maxTransactions',
  'invalidRate',
  'unknownCustomerRate',
  'duplicateRate',
  'offsets',
  'wideAmounts',
  'conditions',
  'funding',
  'maxReturns',
  'revisions',
];

/**
 * A whole data set `{ offers, customers, history, transactions }` (and `returns` with
 * `maxReturns`, `revision` with `revisions`) for `replay`, with invalid
 * items, customers no one registered and duplicate transaction ids (within a list and, for
 * submitted transactions, against history) mixed in at controllable rates. Offers are always
 * valid, with unique ids. A third of the valid transactions come back to a customer and merchant
 * seen earlier, so audiences and `history` facts have something to read. Every rate 0 gives a
 * clean data set.
 * @param options - sizes, rates and pools
 * @returns an arbitrary of data sets
 * @throws TypeError for an unknown option; RangeError for a bad size, rate or day range
 * @example
 * ```ts
 * fc.assert(fc.property(scenarioArbitrary({ duplicateRate: 0.3 }), (s) => {
 *   const result = replay(s);
 *   invariants.oneOutcomePerTransaction(s, result);
 * }));
 * ```
 * @public
 */
export function scenarioArbitrary(options: ScenarioArbitraryOptions = {}): fc.Arbitrary<Scenario> {
  assertKnownKeys(options, KEYS, 'scenarioArbitrary options');
  const invalid = rate(options.invalidRate, 'invalidRate');
  const unknown = rate(options.unknownCustomerRate, 'unknownCustomerRate');
  const duplicate = rate(options.duplicateRate, 'duplicateRate');
  if (invalid + unknown + duplicate > 1) {
    throw new RangeError('invalidRate + unknownCustomerRate + duplicateRate must be at most 1');
  }
  const dates = options.dates ?? { from: '2025-01-01', to: '2025-12-31' };
  const { min } = dayNumbers(dates, 'dates');
  const historyFrom = formatDay(min - 365);
  const merchants = options.merchants ?? OFFER_MERCHANTS;
  const customerIds = options.customerIds ?? CUSTOMER_IDS;
  const txOptions = {
    customerIds,
    merchants: [...merchants, 'Corner Shop'],
    offsets: options.offsets ?? true,
    wideAmounts: options.wideAmounts ?? true,
  };

  const offers = fc.uniqueArray(
    offerArbitrary({
      merchants,
      validity: dates,
      conditions: options.conditions ?? true,
      funding: options.funding ?? false,
    }),
    { selector: (o) => o.offer_id, maxLength: size(options.maxOffers, 6, 'maxOffers') },
  );
  // Every id of the pool sent once (unless corrupted, or sent twice and so rejected): unknown
  // customers come at their rate.
  const customers = fc
    .tuple(
      ...customerIds.map((id) =>
        fc.tuple(
          customerArbitrary({ customerIds: [id], birthdays: options.birthdays }),
          kindArbitrary(invalid, 0, duplicate),
          fc.nat(99),
          fc.nat(99),
        ),
      ),
    )
    .map((list) =>
      list.flatMap(([c, kind, which, n]): unknown[] => {
        if (kind === 'invalid') return [corrupt(c, CUSTOMER_CORRUPTIONS, which, n)];
        return kind === 'duplicate' ? [c, { ...c, gender: `${c.gender} ` }] : [c];
      }),
    );
  const kinds = kindArbitrary(invalid, unknown, duplicate);
  const history = fc.array(
    slotArbitrary(
      historyTransactionArbitrary({ ...txOptions, dates: { from: historyFrom, to: dates.to } }),
      kinds,
    ),
    {
      maxLength: size(options.maxHistory, 12, 'maxHistory'),
    },
  );
  const transactions = fc.array(
    slotArbitrary(transactionArbitrary({ ...txOptions, dates }), kinds),
    {
      maxLength: size(options.maxTransactions, 20, 'maxTransactions'),
    },
  );
  const maxReturns = size(options.maxReturns, 0, 'maxReturns');
  const scenarios = fc.record({ offers, customers, history, transactions }).map((s) => {
    const h = realise(s.history, 'h-', { ids: [], visits: [] }, HISTORY_REQUIRED);
    const t = realise(s.transactions, 'tx-', h, TRANSACTION_REQUIRED);
    return { offers: s.offers, customers: s.customers, history: h.items, transactions: t.items };
  });
  const withReturns: fc.Arbitrary<Scenario> =
    maxReturns === 0
      ? scenarios
      : scenarios.chain((s) =>
          returnsArbitrary(s, { maxReturns }).map((returns): Scenario => ({ ...s, returns })),
        );
  if (options.revisions !== true) return withReturns;
  return withReturns.chain((s) =>
    fc
      .tuple(revisedOffersArbitrary(s.offers), fc.nat(s.returns?.length ?? 0))
      .map(([offers, beforeReturn]): Scenario => ({ ...s, revision: { offers, beforeReturn } })),
  );
}
