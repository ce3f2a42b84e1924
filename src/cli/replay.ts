import { type Command, Option } from 'commander';
import {
  LIABILITY_LABELS,
  LIABILITY_STATUSES,
  liabilityTitle,
} from '../core/backtest/backtestLiability.js';
import type { LiabilitySummary, ReplaySummary } from '../core/index.js';
import type { Outcome } from '../core/outcome.js';
import {
  type FileFormat,
  type MalformedRecord,
  type ReadLimit,
  type ReplayFilePaths,
  replayFiles,
} from '../files/index.js';
import { replayInWorkers } from '../files/parallel/replayInWorkers.js';
import { createRecordWriter, type RecordColumn, type RecordWriter } from '../files/writeRecords.js';
import { Money } from '../model/money.js';
import { resolveOptions } from '../model/options.js';
import { asUsageError } from './fileErrors.js';
import { addReadLimitOptions, parseTimeZone, readLimitsOf, UsageError } from './inputs.js';
import { addLedgerFlags, type LedgerFlags, ledgerOptions } from './ledgerFlags.js';

/** What `cashback replay` reads from its command line. */
interface ReplayCommandOptions
  extends ReplayFilePaths,
    LedgerFlags,
    Partial<Record<ReadLimit, number>> {
  readonly out?: string;
  readonly errors?: string;
  readonly adjustments?: string;
  readonly clawbacks?: string;
  readonly returnErrors?: string;
  readonly json?: boolean;
  readonly strict?: boolean;
  readonly timeZone: string;
  readonly format?: FileFormat;
  readonly workers: number;
  /** Left out: any date order, every purchase kept (what `replay()` does). */
  readonly maxLatenessDays?: number;
}

/** Payments and cashback of one month or offer in the printed summary. */
interface Totals {
  payments: number;
  cashback: InstanceType<typeof Money>;
}

/** The summary `cashback replay` prints: the replay's, plus months and skipped lines. */
interface ReplayCommandSummary extends ReplaySummary {
  /** Payments and cashback by month of the payment date, `YYYY-MM`. */
  readonly byMonth: Readonly<Record<string, { payments: number; cashback: string }>>;
  /** Malformed lines or rows skipped. */
  readonly malformed: number;
}

/** The columns of `--out`, typed for Parquet (docs/replay.md, "Parquet output"). */
const PAYMENT_COLUMNS: readonly RecordColumn[] = [
  { name: 'transaction_id', type: 'text' },
  { name: 'customer_id', type: 'text' },
  { name: 'offer_id', type: 'integer' },
  // The replay rounds cashback to the default scale: the command has no option for another.
  { name: 'cashback', type: 'decimal', scale: resolveOptions().scale },
  { name: 'payment_date', type: 'date' },
];
/** The columns of `--adjustments` (docs/replay.md, Returns). */
const ADJUSTMENT_COLUMNS: readonly RecordColumn[] = [
  { name: 'return_id', type: 'text' },
  { name: 'transaction_id', type: 'text' },
  { name: 'customer_id', type: 'text' },
  { name: 'offer_id', type: 'integer' },
  { name: 'previous_cashback', type: 'decimal', scale: resolveOptions().scale },
  { name: 'cashback', type: 'decimal', scale: resolveOptions().scale },
  { name: 'payment_date', type: 'date' },
];
/**
 * The columns of `--clawbacks` (docs/replay.md, Late returns). The two date-times are wall-clock
 * text in the replay's zone, as the records give them: a Parquet timestamp would claim an instant.
 */
const CLAWBACK_COLUMNS: readonly RecordColumn[] = [
  { name: 'return_id', type: 'text' },
  { name: 'transaction_id', type: 'text' },
  { name: 'customer_id', type: 'text' },
  { name: 'offer_id', type: 'integer' },
  { name: 'offer_revision', type: 'integer' },
  { name: 'amount', type: 'decimal', scale: resolveOptions().scale },
  { name: 'date', type: 'text' },
  { name: 'reported_at', type: 'text' },
];
// `--errors` and `--return-errors` share these columns.
const ERROR_COLUMNS: readonly RecordColumn[] = [
  { name: 'key', type: 'text' },
  { name: 'code', type: 'text' },
  { name: 'message', type: 'text' },
];

/**
 * Opens `--out` or `--errors` by its name.
 * @throws UsageError for a name that is no output format
 */
function outputFile(file: string, columns: readonly RecordColumn[]): RecordWriter {
  try {
    return createRecordWriter(file, columns);
  } catch (err) {
    throw err instanceof TypeError ? new UsageError(err.message) : err;
  }
}

/** Parses a whole-number option of at least `min`. */
function wholeOption(name: string, min: number): (value: string) => number {
  return (value) => {
    const n = /^[0-9]{1,6}$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min))
      throw new UsageError(`${name} must be a whole number >= ${min}, got '${value}'`);
    return n;
  };
}

/** A one-line progress bar on stderr: bytes read, transactions a second, time left. */
function progressBar(): {
  bytes: (read: number, total: number) => void;
  tick: () => void;
  done: () => void;
} {
  const started = Date.now();
  let read = 0;
  let total = 1;
  let count = 0;
  let last = 0;
  const draw = (): void => {
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    const share = Math.min(1, read / Math.max(1, total));
    const width = 24;
    const filled = Math.round(share * width);
    const eta = share > 0 ? Math.round(seconds / share - seconds) : 0;
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0)}% ` +
        `${(read / 2 ** 20).toFixed(1)}/${(total / 2 ** 20).toFixed(1)} MiB ` +
        `${Math.round(count / seconds)} tx/s ETA ${eta}s  `,
    );
  };
  return {
    bytes: (r, t) => {
      read = r;
      total = t;
    },
    tick: () => {
      count++;
      if ((count & 1023) === 0 && Date.now() - last > 200) {
        last = Date.now();
        draw();
      }
    },
    done: () => {
      draw();
      process.stderr.write('\n');
    },
  };
}

/** Sums outcomes by month of payment. */
function monthTotals(): {
  add: (o: Outcome) => void;
  build: (scale: number) => ReplayCommandSummary['byMonth'];
} {
  const months = new Map<string, Totals>();
  return {
    add(o) {
      if (!o.ok) return;
      const month = o.payment.payment_date.slice(0, 7);
      const t = months.get(month) ?? { payments: 0, cashback: new Money(0) };
      t.payments++;
      t.cashback = t.cashback.plus(String(o.payment.cashback));
      months.set(month, t);
    },
    build(scale) {
      const out: Record<string, { payments: number; cashback: string }> = {};
      for (const m of [...months.keys()].sort()) {
        const t = months.get(m) as Totals;
        out[m] = { payments: t.payments, cashback: t.cashback.toFixed(scale) };
      }
      return out;
    },
  };
}

/** Columns of a table, left-aligned first column and right-aligned numbers. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  '),
    )
    .join('\n');
}

/**
 * The summary as text tables: outcomes, cashback total, per offer, per month.
 * @param s - the summary
 * @returns the text, ending in a newline
 */
function formatSummary(s: ReplayCommandSummary): string {
  const outcomes = [
    ['outcome', 'transactions'],
    ['paid', String(s.paid)],
    ...Object.entries(s.errors).map(([code, n]) => [code, String(n)]),
    ['total', String(s.transactions)],
  ];
  const offers = [
    ['offer', 'payments', `cashback (${s.currency})`],
    ...Object.entries(s.byOffer).map(([id, t]) => [id, String(t.payments), t.cashback]),
  ];
  const months = [
    ['month paid', 'payments', `cashback (${s.currency})`],
    ...Object.entries(s.byMonth).map(([m, t]) => [m, String(t.payments), t.cashback]),
  ];
  const r = s.returns;
  const returns =
    r === undefined
      ? ''
      : `${table([
          ['return outcome', 'returns'],
          ['adjusted', String(r.adjusted)],
          ['clawed back', String(r.clawbacks)],
          ...Object.entries(r.errors).map(([code, n]) => [code, String(n)]),
          ['total', String(r.returns)],
        ])}\n\n`;
  const net =
    r === undefined
      ? []
      : [
          `cashback taken back by returns: ${r.adjustedCashback} ${s.currency}`,
          `cashback net of returns: ${r.netCashback} ${s.currency}`,
        ];
  const notes = [
    `cashback total${r === undefined ? '' : ' as decided'}: ${s.totalCashback} ${s.currency}`,
    ...net,
    `rejected before the transactions: ${s.rejected.customers} customer(s), ${s.rejected.history} history transaction(s)`,
    `malformed lines skipped: ${s.malformed}`,
  ];
  return `${table(outcomes)}\n\n${returns}${table(offers)}\n\n${table(months)}\n\n${notes.join('\n')}\n\n${liabilityText(s.liability, s.currency)}`;
}

/**
 * The liability as of the summary's instant: count and cashback by status, after every line the
 * summary printed before it had one.
 * @param l - the summary's liability
 * @param currency - the replay's currency
 * @returns the text, ending in a newline
 */
function liabilityText(l: LiabilitySummary, currency: string): string {
  const rows = [
    ['status', 'count', `cashback (${currency})`],
    ...LIABILITY_STATUSES.map((k) => [LIABILITY_LABELS[k], String(l[k].count), l[k].cashback]),
  ];
  return `${liabilityTitle(l.asOf)}\n${table(rows)}\n`;
}

/**
 * Runs `cashback replay`: streams the transactions file through the replay, writes payments and
 * errors, prints the summary.
 * @param options - the command line's options
 * @throws UsageError for a file that cannot be read, an invalid offers file, or (with `strict`) a
 *   malformed line
 */
async function replayCommand(options: ReplayCommandOptions): Promise<void> {
  const bar = process.stderr.isTTY ? progressBar() : undefined;
  const reportMalformed = (m: MalformedRecord): void => {
    process.stderr.write(`cashback: skipped ${m.file}:${m.line}: ${m.reason}\n`);
  };
  const paths = {
    offers: options.offers,
    customers: options.customers,
    ...(options.activations === undefined ? {} : { activations: options.activations }),
    ...(options.history === undefined ? {} : { history: options.history }),
    transactions: options.transactions,
    ...(options.returns === undefined ? {} : { returns: options.returns }),
  };
  if (
    options.returns === undefined &&
    (options.adjustments ?? options.clawbacks ?? options.returnErrors) !== undefined
  ) {
    throw new UsageError('--adjustments, --clawbacks and --return-errors need --returns');
  }
  if (options.returns !== undefined && options.workers > 1) {
    throw new UsageError(
      '--returns cannot be used with --workers above 1: returns are decided by one session',
    );
  }
  const fileOptions = {
    timeZone: options.timeZone,
    maxLatenessDays: options.maxLatenessDays ?? Number.POSITIVE_INFINITY,
    ...ledgerOptions(options),
    ...(options.format === undefined ? {} : { format: options.format }),
    ...(options.strict === true ? { strict: true } : {}),
    onMalformed: reportMalformed,
    ...(bar === undefined ? {} : { onProgress: bar.bytes }),
    limits: readLimitsOf(options),
  };
  let payments: RecordWriter | undefined;
  let errors: RecordWriter | undefined;
  let adjusted: RecordWriter | undefined;
  let clawedBack: RecordWriter | undefined;
  let returnErrors: RecordWriter | undefined;
  try {
    const replay =
      options.workers > 1
        ? await replayInWorkers(paths, fileOptions, options.workers)
        : await replayFiles(paths, fileOptions);
    reportRejectedActivations(replay.rejected.activations);
    payments = options.out === undefined ? undefined : outputFile(options.out, PAYMENT_COLUMNS);
    errors = options.errors === undefined ? undefined : outputFile(options.errors, ERROR_COLUMNS);
    adjusted =
      options.adjustments === undefined
        ? undefined
        : outputFile(options.adjustments, ADJUSTMENT_COLUMNS);
    clawedBack =
      options.clawbacks === undefined ? undefined : outputFile(options.clawbacks, CLAWBACK_COLUMNS);
    returnErrors =
      options.returnErrors === undefined
        ? undefined
        : outputFile(options.returnErrors, ERROR_COLUMNS);
    const writeReturns = async (): Promise<void> => {
      for (const o of replay.takeReturnOutcomes()) {
        if (!o.ok) returnErrors?.write(o.error);
        else if (o.kind === 'adjustment') adjusted?.write(o.adjustment);
        else clawedBack?.write(o.clawback);
      }
      await adjusted?.drained();
      await clawedBack?.drained();
      await returnErrors?.drained();
    };
    const months = monthTotals();
    for await (const chunk of replay.chunks()) {
      for (const o of chunk) {
        months.add(o);
        bar?.tick();
        if (o.ok) payments?.write(o.payment);
        else errors?.write(o.error);
      }
      // Wait for the files only between chunks: no promise per outcome.
      await payments?.drained();
      await errors?.drained();
      await writeReturns();
    }
    // The returns after the last transaction are decided when the iteration ends.
    await writeReturns();
    bar?.done();
    await payments?.close();
    await errors?.close();
    await adjusted?.close();
    await clawedBack?.close();
    await returnErrors?.close();
    const base = replay.summary();
    const scale = (base.totalCashback.split('.')[1] ?? '').length;
    const summary: ReplayCommandSummary = {
      ...base,
      byMonth: months.build(scale),
      malformed: replay.malformed(),
    };
    process.stdout.write(
      options.json === true ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary),
    );
  } catch (err) {
    throw asUsageError(err);
  }
}

/**
 * Names each rejected activation on stderr: the summary counts customers and history only, and an
 * activation lost quietly would only show as payments that never came.
 * @param rejected - the replay's rejected activations
 */
function reportRejectedActivations(rejected: readonly { key: string; message: string }[]): void {
  for (const e of rejected) process.stderr.write(`cashback: activation ${e.key}: ${e.message}\n`);
}

/**
 * Adds `cashback replay` to the program.
 * @param program - the `cashback` program
 */
export function addReplayCommand(program: Command): void {
  const command = program
    .command('replay')
    .description(
      'Replay transaction files against offers: payments, errors and a summary (docs/replay.md).',
    )
    .requiredOption('--offers <file>', 'offers (JSON array)')
    .requiredOption('--customers <file>', 'customers')
    .option(
      '--activations <file>',
      'activations {customer_id, offer_id, date} of offers with requires_activation',
    )
    .option('--history <file>', 'history transactions, applied after the customers')
    .requiredOption('--transactions <file>', 'transactions to decide, in any order (streamed)')
    .option(
      '--returns <file>',
      'returns, merged with the transactions by date-time (read whole; docs/replay.md, Returns)',
    )
    .option('--out <file>', 'payments, CSV, NDJSON (.gz compresses) or Parquet by extension')
    .option(
      '--errors <file>',
      'errors, one per transaction that earns nothing, CSV, NDJSON or Parquet',
    )
    .option(
      '--adjustments <file>',
      'payments adjusted by returns, one per return that adjusts, CSV, NDJSON or Parquet',
    )
    .option(
      '--clawbacks <file>',
      'clawbacks of returns that arrived once their payment was confirmed, CSV, NDJSON or Parquet',
    )
    .option(
      '--return-errors <file>',
      'return errors, one per return that adjusts nothing, CSV, NDJSON or Parquet',
    )
    .option('--json', 'print the summary as JSON')
    .option('--strict', 'a malformed line or row ends the run (exit code 2)')
    .addOption(
      new Option(
        '--format <format>',
        'format of every input, when extensions do not say it',
      ).choices(['json', 'ndjson', 'csv', 'parquet']),
    )
    .addOption(
      new Option('--time-zone <zone>', 'IANA time zone of transaction dates')
        .argParser(parseTimeZone)
        .default('UTC'),
    )
    .addOption(
      new Option(
        '--workers <n>',
        'threads, each deciding one partition of the customers; same output',
      )
        .argParser(wholeOption('--workers', 1))
        .default(1),
    )
    .addOption(
      new Option(
        '--max-lateness-days <days>',
        'how many days a transaction may be out of date order, keeping only the purchases that can still count (default: any order, every purchase kept)',
      ).argParser(wholeOption('--max-lateness-days', 0)),
    );
  addReadLimitOptions(addLedgerFlags(command)).action(async (raw: ReplayCommandOptions) => {
    await replayCommand(raw);
  });
}
