import { duplicateTransaction } from '../../model/errors.js';
import type { Outcome } from '../outcome.js';

/**
 * The outcome of a transaction that screening found to be a duplicate, as `decide` words it.
 * @param id - its transaction id
 * @returns the `duplicate_transaction` error
 */
export function duplicateOutcome(id: string): Outcome {
  return {
    ok: false,
    error: { key: id, code: 'duplicate_transaction', message: duplicateTransaction(id) },
  };
}
