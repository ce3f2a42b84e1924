import fc from 'fast-check';
import { transactionParts } from './_internals/transactionParts.js';
import type { HistoryTransactionJson } from './shapes.js';
import {
  resolveTransactionOptions,
  type TransactionArbitraryOptions,
} from './transactionArbitrary.js';

/**
 * Valid history transactions (docs/concepts.md, Input rules): like {@link transactionArbitrary}, with the optional
 * `description`, `merchant.id`, `merchant.category_code` and `location` sometimes left out. Ids
 * start with `h-` by default, so they do not meet submitted ones unless you make them.
 * @param options - pools and ranges; dates default to 2024-01-01 … 2025-12-31
 * @returns an arbitrary of history transactions
 * @throws TypeError for an unknown option; RangeError for empty pools or a bad day range
 * @example
 * ```ts
 * const history = fc.uniqueArray(historyTransactionArbitrary(), { selector: (t) => t.transaction_id });
 * ```
 * @public
 */
export function historyTransactionArbitrary(
  options: TransactionArbitraryOptions = {},
): fc.Arbitrary<HistoryTransactionJson> {
  const parts = transactionParts(
    resolveTransactionOptions(options, 'historyTransactionArbitrary', {
      idPrefix: 'h-',
      dates: { from: '2024-01-01', to: '2025-12-31' },
    }),
  );
  const keep = fc.record({
    description: fc.boolean(),
    id: fc.boolean(),
    category: fc.boolean(),
    location: fc.boolean(),
  });
  return fc.tuple(parts, keep).map(([t, k]) => {
    const h: HistoryTransactionJson = {
      transaction_id: t.transaction_id,
      customer_id: t.customer_id,
      date: t.date,
      amount: t.amount,
      merchant: {
        name: t.merchant.name,
        ...(k.id ? { id: t.merchant.id } : {}),
        ...(k.category ? { category_code: t.merchant.category_code } : {}),
      },
      ...(k.description ? { description: t.description } : {}),
      ...(k.location ? { location: { ...t.location } } : {}),
      ...(t.channel === undefined ? {} : { channel: t.channel }),
    };
    return h;
  });
}
