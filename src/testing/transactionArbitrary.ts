import type fc from 'fast-check';
import { assertKnownKeys } from '../model/knownKeys.js';
import { CUSTOMER_IDS, TRANSACTION_MERCHANTS } from './_internals/pools.js';
import { type PartsOptions, transactionParts } from './_internals/transactionParts.js';
import type { DayRange } from './DayRange.js';
import type { TransactionJson } from './shapes.js';

/**
 * Options of {@link transactionArbitrary} and {@link historyTransactionArbitrary}. Every field is
 * optional.
 * @example
 * ```ts
 * transactionArbitrary({ customerIds: ['alice'], merchants: ['Acme'], offsets: false, wideAmounts: false });
 * ```
 * @public
 */
export interface TransactionArbitraryOptions {
  /**
   * Prefix of transaction ids, followed by a number from 1 to 999999.
   * @defaultValue `'tx-'` (`'h-'` for history transactions)
   */
  readonly idPrefix?: string;
  /**
   * Customer ids transactions refer to.
   * @defaultValue `['c1', 'c2', 'c3', 'c4', 'c5', 'c6']`, the pool of {@link customerArbitrary}
   */
  readonly customerIds?: readonly string[];
  /**
   * Merchant names.
   * @defaultValue the pool of {@link offerArbitrary} plus `'Corner Shop'`, which has no offer
   */
  readonly merchants?: readonly string[];
  /**
   * Spell merchant names in variants with the same match key.
   * @defaultValue `true`
   */
  readonly merchantVariants?: boolean;
  /**
   * Days dates are drawn from.
   * @defaultValue `{ from: '2025-01-01', to: '2025-12-31' }` (`2024-01-01` to `2025-12-31` for history)
   */
  readonly dates?: DayRange;
  /**
   * Sometimes end dates with `Z` or a UTC offset; without, dates are wall-clock time in the
   * engine's zone.
   * @defaultValue `true`
   */
  readonly offsets?: boolean;
  /**
   * Besides cents (as numbers or decimal strings), draw amounts with many decimals, huge amounts
   * (up to the bound of 10^12) and arbitrary positive doubles.
   * @defaultValue `true`
   */
  readonly wideAmounts?: boolean;
  /**
   * Sometimes carry a `channel` (`online` or `in_store`; docs/concepts.md, Scopes), a third of
   * the time each, and none the other third.
   * @defaultValue `true`
   */
  readonly channels?: boolean;
}

/** Every key of {@link TransactionArbitraryOptions}. */
const TRANSACTION_ARBITRARY_KEYS: readonly (keyof TransactionArbitraryOptions)[] = [
  'idPrefix',
  'customerIds',
  'merchants',
  'merchantVariants',
  'dates',
  'offsets',
  'wideAmounts',
  'channels',
];

/**
 * The options of a transaction arbitrary, checked, with the defaults submitted and history
 * transactions share.
 * @param options - the options given
 * @param name - the arbitrary, for the message of an unknown option
 * @param defaults - the id prefix and the days, which differ between submitted and history ones
 * @returns the options of `transactionParts`
 * @throws TypeError for an unknown option
 */
export function resolveTransactionOptions(
  options: TransactionArbitraryOptions,
  name: string,
  defaults: Pick<PartsOptions, 'idPrefix' | 'dates'>,
): PartsOptions {
  assertKnownKeys(options, TRANSACTION_ARBITRARY_KEYS, `${name} options`);
  return {
    idPrefix: options.idPrefix ?? defaults.idPrefix,
    customerIds: options.customerIds ?? CUSTOMER_IDS,
    merchants: options.merchants ?? TRANSACTION_MERCHANTS,
    merchantVariants: options.merchantVariants ?? true,
    dates: options.dates ?? defaults.dates,
    offsets: options.offsets ?? true,
    wideAmounts: options.wideAmounts ?? true,
    channels: options.channels ?? true,
  };
}

/**
 * Valid submitted transactions, all seven fields (docs/concepts.md, Input rules): customer ids from a pool, merchant
 * names from a pool in spelling variants, amounts as numbers or decimal strings, dates within a
 * range, optionally with `Z` or an offset. Ids are random; draw a batch with unique ids.
 * @param options - pools and ranges
 * @returns an arbitrary of transactions
 * @throws TypeError for an unknown option; RangeError for empty pools or a bad day range
 * @example
 * ```ts
 * const batch = fc.uniqueArray(transactionArbitrary({ offsets: false }), {
 *   selector: (t) => t.transaction_id,
 *   maxLength: 20,
 * });
 * ```
 * @public
 */
export function transactionArbitrary(
  options: TransactionArbitraryOptions = {},
): fc.Arbitrary<TransactionJson> {
  const resolved = resolveTransactionOptions(options, 'transactionArbitrary', {
    idPrefix: 'tx-',
    dates: { from: '2025-01-01', to: '2025-12-31' },
  });
  return transactionParts(resolved).map((t) => ({
    ...t,
    merchant: { ...t.merchant },
    location: { ...t.location },
  }));
}
