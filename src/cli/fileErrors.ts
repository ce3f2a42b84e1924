import { LateTransactionError } from '../core/index.js';
import { FileReadError, MalformedRecordError, ReadLimitError } from '../files/index.js';
import { READ_LIMIT_FLAGS, UsageError } from './inputs.js';

/**
 * What the file commands (`replay`, `backtest`, `explain`) throw for an error: a `UsageError`
 * (one line, exit code 2) when the input files are at fault — unreadable, malformed in a strict
 * run, out of date order, or holding an invalid offer — and the error itself otherwise. A line,
 * field or value past a read limit is named by file and line, with the flag that raises the limit.
 * @param err - what was thrown
 * @returns the error to throw
 */
export function asUsageError(err: unknown): unknown {
  if (err instanceof ReadLimitError) {
    return new UsageError(
      `${err.file}:${err.line}: ${err.detail}; ${READ_LIMIT_FLAGS[err.limit]} raises the limit`,
    );
  }
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
