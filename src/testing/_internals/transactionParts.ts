import fc from 'fast-check';
import type { DayRange } from '../DayRange.js';
import { amountArbitrary } from './amounts.js';
import { dateTimeArbitrary } from './dates.js';
import { CATEGORIES, MERCHANT_IDS, PLACES } from './pools.js';
import { merchantNameArbitrary } from './variants.js';

/** What submitted and history transactions share. */
export interface TransactionParts {
  readonly transaction_id: string;
  readonly customer_id: string;
  readonly description: string;
  readonly date: string;
  readonly amount: number | string;
  readonly merchant: { readonly id: string; readonly name: string; readonly category_code: string };
  readonly location: { readonly country: string; readonly city: string };
  /** Where it was paid; absent: not sent. */
  readonly channel?: 'online' | 'in_store';
}

/** Resolved options of the transaction arbitraries. */
export interface PartsOptions {
  readonly idPrefix: string;
  readonly customerIds: readonly string[];
  readonly merchants: readonly string[];
  readonly merchantVariants: boolean;
  readonly dates: DayRange;
  readonly offsets: boolean;
  readonly wideAmounts: boolean;
  readonly channels: boolean;
}

/**
 * Every field of a transaction, valid.
 */
export function transactionParts(o: PartsOptions): fc.Arbitrary<TransactionParts> {
  if (o.customerIds.length === 0) throw new RangeError('customerIds must not be empty');
  const channel = o.channels
    ? fc.constantFrom<'online' | 'in_store' | undefined>(undefined, 'online', 'in_store')
    : fc.constant(undefined);
  const parts = fc.record({
    transaction_id: fc.integer({ min: 1, max: 999_999 }).map((n) => `${o.idPrefix}${n}`),
    customer_id: fc.constantFrom(...o.customerIds),
    description: fc.constantFrom('', 'Card payment', 'Contactless', 'Online order'),
    date: dateTimeArbitrary(o.dates, o.offsets),
    amount: amountArbitrary(o.wideAmounts),
    merchant: fc.record({
      id: fc.constantFrom(...MERCHANT_IDS),
      name: merchantNameArbitrary(o.merchants, o.merchantVariants),
      category_code: fc.constantFrom(...CATEGORIES),
    }),
    location: fc.constantFrom(...PLACES).map((p) => ({ country: p.country, city: p.city })),
  });
  return fc
    .tuple(parts, channel)
    .map(([t, c]): TransactionParts => (c === undefined ? t : { ...t, channel: c }));
}
