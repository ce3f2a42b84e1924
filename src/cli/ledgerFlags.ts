// The flags of the payment ledger that `cashback replay` and `cashback backtest` share: the
// instant their liability is judged at, and what a late return does (docs/replay.md, Liability;
// Late returns).
import { type Command, Option } from 'commander';
import { parseDateTime } from '../model/dateTime.js';
import type { LateReturns } from '../model/options.js';
import { UsageError } from './inputs.js';

/** What the two flags give a command's options. */
export interface LedgerFlags {
  /** `--as-of`, as given: read in the command's `--time-zone` by the replay. */
  readonly asOf?: string;
  /** `--late-returns`. */
  readonly lateReturns?: LateReturns;
}

/**
 * Checks `--as-of`. A date-time's shape does not depend on the zone it is read in, so it is
 * checked here, before any file is read; the replay reads it in `--time-zone`.
 * @throws UsageError naming the flag for a value that is not a date-time
 */
function parseAsOf(value: string): string {
  const read = parseDateTime(value, 'UTC');
  if (typeof read === 'string') {
    throw new UsageError(
      `--as-of ${read} (YYYY-MM-DDTHH:mm:ss, optionally with fractional seconds and Z or an offset), got '${value}'`,
    );
  }
  return value;
}

/**
 * Checks `--late-returns`.
 * @throws UsageError naming the flag and its two values for any other
 */
function parseLateReturns(value: string): LateReturns {
  if (value === 'clawback' || value === 'ignore') return value;
  throw new UsageError(`--late-returns must be 'clawback' or 'ignore', got '${value}'`);
}

/**
 * Adds `--as-of` and `--late-returns` to a command.
 * @param command - `cashback replay` or `cashback backtest`
 * @returns the command
 */
export function addLedgerFlags(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--as-of <date-time>',
        'the instant the summary splits cashback into pending, confirmed, cancelled and clawed back, read in --time-zone (default: the latest date-time of the input)',
      ).argParser(parseAsOf),
    )
    .addOption(
      new Option(
        '--late-returns <clawback|ignore>',
        'what a return that arrives (reported_at) once its payment is confirmed does: clawback records a clawback, ignore answers late_return (default: clawback)',
      ).argParser(parseLateReturns),
    );
}

/**
 * The replay options the two flags give: only those given, so that the defaults stay the core's.
 * @param flags - the command's options
 * @returns `asOf` and `lateReturns`, when given
 */
export function ledgerOptions(flags: LedgerFlags): LedgerFlags {
  return {
    ...(flags.asOf === undefined ? {} : { asOf: flags.asOf }),
    ...(flags.lateReturns === undefined ? {} : { lateReturns: flags.lateReturns }),
  };
}
