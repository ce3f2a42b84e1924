import { assertKnownKeys } from '../model/knownKeys.js';
import type { TransactionRecord } from './records.js';
import type { TransactionInsertOptions } from './Store.js';

/**
 * The customers a `transactions.insert` holds (docs/stores.md, Customers held by an insert):
 * `options.hold` when given, else the records' customers. Every store refuses the same options
 * with the same words, before it writes anything.
 * @param transactions - the records to insert
 * @param options - the insert's options, as passed
 * @returns the customer ids to hold, each once
 * @throws TypeError when `options` has a key other than `hold`, or `hold` is not an array of
 *   non-empty strings
 */
export function customersToHold(
  transactions: readonly TransactionRecord[],
  options: TransactionInsertOptions | undefined,
): readonly string[] {
  assertKnownKeys(options, ['hold'], 'transactions.insert options');
  const hold = options?.hold;
  if (hold === undefined) return [...new Set(transactions.map((t) => t.customer_id))];
  if (!Array.isArray(hold)) {
    throw new TypeError(`transactions.insert options.hold must be an array of customer ids`);
  }
  hold.forEach((id: unknown, i) => {
    if (typeof id !== 'string' || id.length === 0) {
      throw new TypeError(
        `transactions.insert options.hold[${i}] must be a non-empty string, got ${JSON.stringify(id)}`,
      );
    }
  });
  return [...new Set(hold)];
}
