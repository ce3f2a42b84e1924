import { writeFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import {
  type BacktestResult,
  type BacktestRow,
  backtest,
  type NetFigures,
} from '../core/backtest/backtest.js';
import { LIABILITY_LABELS, liabilityTitle } from '../core/backtest/backtestLiability.js';
import {
  FileReadError,
  type MalformedRecord,
  MalformedRecordError,
  type ReadLimit,
  readAllRecords,
  readRecords,
} from '../files/index.js';
import { readWholeInputs } from '../files/replayFiles.js';
import { backtestReport } from '../files/report.js';
import { asUsageError } from './fileErrors.js';
import { fundingText } from './fundingText.js';
import { addReadLimitOptions, parseTimeZone, readLimitsOf } from './inputs.js';
import { addLedgerFlags, type LedgerFlags, ledgerOptions } from './ledgerFlags.js';

/** What `cashback backtest` reads from its command line. */
interface BacktestCommandOptions extends LedgerFlags, Partial<Record<ReadLimit, number>> {
  readonly baseline: string;
  readonly candidate: string;
  readonly customers: string;
  readonly activations?: string;
  readonly history?: string;
  readonly transactions: string;
  readonly returns?: string;
  readonly report?: string;
  readonly json?: boolean;
  readonly strict?: boolean;
  readonly timeZone: string;
}

/** One difference table as text: key, then paid, cashback and customers of each set. */
function table(title: string, rows: readonly BacktestRow[]): string {
  const head = [
    '',
    'paid',
    'cashback',
    'customers',
    'paid',
    'cashback',
    'customers',
    'Δ paid',
    'Δ cashback',
    'Δ customers',
  ];
  const body = rows.map((r) => [
    r.key,
    ...(['baseline', 'candidate', 'difference'] as const).flatMap((s) => [
      String(r[s].paid),
      r[s].cashback,
      String(r[s].customers),
    ]),
  ]);
  const all = [head, ...body];
  const widths = head.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return `${title} (baseline | candidate | difference)\n${all.map(line).join('\n')}\n`;
}

/** Cashback of both sets as decided, taken back by returns and net, as a text table. */
function netText(net: BacktestRow<NetFigures>): string {
  const rows: readonly (readonly [string, keyof NetFigures])[] = [
    ['as decided', 'decided'],
    ['taken back by returns', 'adjusted'],
    ['net of returns', 'net'],
  ];
  const all = [
    ['', 'baseline', 'candidate', 'difference'],
    ...rows.map(([name, f]) => [name, net.baseline[f], net.candidate[f], net.difference[f]]),
  ];
  const widths = (all[0] ?? []).map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return `cashback net of returns (baseline | candidate | difference)\n${all.map(line).join('\n')}\n`;
}

/** Both sets' liability as of the backtest's instant, count and cashback by status. */
function liabilityText(b: BacktestResult): string {
  const head = ['', 'count', 'cashback', 'count', 'cashback', 'Δ count', 'Δ cashback'];
  const body = b.liability.byStatus.map((r) => [
    LIABILITY_LABELS[r.key as keyof typeof LIABILITY_LABELS] ?? r.key,
    ...(['baseline', 'candidate', 'difference'] as const).flatMap((s) => [
      String(r[s].count),
      r[s].cashback,
    ]),
  ]);
  const all = [head, ...body];
  const widths = head.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const title = liabilityTitle(b.liability.asOf);
  return `${title} (baseline | candidate | difference)\n${all.map(line).join('\n')}\n`;
}

/**
 * The backtest as text tables: total (net of returns, budgets and held-back cashback when there
 * are some), per offer, per month, per segment, then both sets' liability.
 * @param b - the backtest
 * @returns the text
 */
function formatBacktest(b: BacktestResult): string {
  return [
    table('total', [b.total]),
    ...(b.returns === undefined ? [] : [netText(b.returns)]),
    ...fundingText(b),
    table('by offer', b.byOffer),
    table('by month', b.byMonth),
    table('by age band', b.bySegment.age),
    table('by gender', b.bySegment.gender),
    table('new and returning customers', b.bySegment.audience),
    // Last, so that the tables printed before the liability existed keep their places.
    liabilityText(b),
  ].join('\n');
}

/**
 * Runs `cashback backtest`: both offer sets over the same files, the differences printed, and the
 * HTML report written with `--report`.
 * @param options - the command line's options
 * @throws UsageError for a file that cannot be read, an invalid offer, or (with `strict`) a
 *   malformed line
 */
async function backtestCommand(options: BacktestCommandOptions): Promise<void> {
  const skip = (m: MalformedRecord): void => {
    if (options.strict === true) throw new MalformedRecordError(m);
    process.stderr.write(`cashback: skipped ${m.file}:${m.line}: ${m.reason}\n`);
  };
  const limits = readLimitsOf(options);
  const whole = async (file: string): Promise<unknown[]> => {
    const read = await readAllRecords(file, { limits });
    for (const m of read.malformed) skip(m);
    return read.records;
  };
  try {
    const baseline = await whole(options.baseline);
    const candidate = await whole(options.candidate);
    const { customers, activations, history, returns } = await readWholeInputs(options, whole);
    const records = readRecords(options.transactions, { limits });
    async function* transactions(): AsyncGenerator<unknown> {
      for await (const r of records) {
        if (r.ok) yield r.value;
        else skip(r);
      }
    }
    const b = await backtest(
      {
        baseline,
        candidate,
        customers,
        activations,
        history,
        transactions: transactions(),
        ...(returns === undefined ? {} : { returns }),
      },
      { timeZone: options.timeZone, ...ledgerOptions(options) },
    );
    if (options.report !== undefined) {
      try {
        writeFileSync(options.report, backtestReport(b));
      } catch (err) {
        throw new FileReadError(options.report, `cannot write: ${(err as Error).message}`);
      }
    }
    process.stdout.write(
      options.json === true ? `${JSON.stringify(b, null, 2)}\n` : formatBacktest(b),
    );
  } catch (err) {
    throw asUsageError(err);
  }
}

/**
 * Adds `cashback backtest` to the program.
 * @param program - the `cashback` program
 */
export function addBacktestCommand(program: Command): void {
  const command = program
    .command('backtest')
    .description(
      'Replay two offer sets over the same files and report the difference per offer, month and customer segment (docs/backtest.md).',
    )
    .requiredOption('--baseline <file>', 'the offers in force (JSON array)')
    .requiredOption('--candidate <file>', 'the offers to compare (JSON array)')
    .requiredOption('--customers <file>', 'customers')
    .option(
      '--activations <file>',
      'activations {customer_id, offer_id, date} of offers with requires_activation',
    )
    .option('--history <file>', 'history transactions')
    .requiredOption('--transactions <file>', 'transactions, in date order (streamed)')
    .option(
      '--returns <file>',
      'returns, merged with the transactions by date-time (read whole; docs/backtest.md, Returns)',
    )
    .option('--report <file>', 'write a self-contained HTML report with charts')
    .option('--json', 'print the difference tables and chart specifications as JSON')
    .option('--strict', 'a malformed line or row ends the run (exit code 2)')
    .addOption(
      new Option('--time-zone <zone>', 'IANA time zone of transaction dates')
        .argParser(parseTimeZone)
        .default('UTC'),
    );
  addReadLimitOptions(addLedgerFlags(command)).action(async (raw: BacktestCommandOptions) => {
    await backtestCommand(raw);
  });
}
