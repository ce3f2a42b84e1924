import { LateTransactionError } from '../core/index.js';
import { FileReadError, MalformedRecordError } from '../files/index.js';
import { UsageError } from './inputs.js';

/**
 * What the file commands (`replay`, `backtest`, `explain`) throw for an error: a `UsageError`
 * (one line, exit code 2) when the input files are at fault — unreadable, malformed in a strict
 * run, out of date order, or holding an invalid offer — and the error itself otherwise.
 * @param err - what was thrown
 * @returns the error to throw
 */
export function asUsageError(err: unknown): unknown {
  if (
    err instanceof FileReadError ||
    err instanceof MalformedRecordError ||
    err instanceof LateTransactionError ||
    (err instanceof Error && err.name === 'OfferValidationError')
  ) {
    return new UsageError(err.message);
  }
  return err;
}
