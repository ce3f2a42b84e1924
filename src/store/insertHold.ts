import { assertKnownKeys } from '../model/knownKeys.js';
import type { TransactionRecord } from './records.js';
import type { TransactionInsertOptions } from './Store.js';

/**
 * Checks the options of `transactions.insert` (docs/stores.md, Customers held by an insert)
 * before a store writes anything: every store refuses the same options with the same words.
 * @param options - the insert's options, as passed
 * @throws TypeError when `options` has a key other than `hold`, or `hold` is not an array of
 *   non-empty strings
 */
export function checkInsertOptions(options: TransactionInsertOptions | undefined): void {
  assertKnownKeys(options, ['hold'], 'transactions.insert options');
  const hold: unknown = options?.hold;
  if (hold === undefined) return;
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
}

/**
 * The customers a `transactions.insert` holds: `options.hold` when given, else the records'
 * customers. The options are checked first (`checkInsertOptions`).
 * @param transactions - the records to insert
 * @param options - the insert's options, as passed
 * @returns the customer ids to hold, each once
 * @throws TypeError as `checkInsertOptions`
 */
export function customersToHold(
  transactions: readonly TransactionRecord[],
  options: TransactionInsertOptions | undefined,
): readonly string[] {
  checkInsertOptions(options);
  return [...new Set(options?.hold ?? transactions.map((t) => t.customer_id))];
}
