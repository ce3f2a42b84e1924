/**
 * The payment ledger in `cashback replay` and `cashback backtest` as users run them: returns that
 * arrive (`reported_at`) once their payment is confirmed, read from every input format, written
 * with `--clawbacks` in every output format, `--late-returns` and `--as-of`, and the liability
 * printed and in `--json` as `replay()` and `backtest()` give it. Bad flag values end with one
 * line naming the flag and exit code 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtest, type LiabilitySummary, replay } from '../../src/index.js';
import { doubledOffers } from '../files/_reportBytes.js';
import { sampleData } from '../files/generated.js';
import { type BuiltCli, buildCli } from './_buildCli.js';

let built: BuiltCli;
let work: string;
let duck: DuckDBConnection;

beforeAll(async () => {
  built = await buildCli();
  work = built.dir;
  duck = await (await DuckDBInstance.create(':memory:')).connect();
}, 60_000);

afterAll(() => {
  duck?.closeSync();
  built?.remove();
});

const file = (name: string, content: string | Uint8Array): string => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};
const ndjson = (items: readonly unknown[]): string =>
  items.map((t) => JSON.stringify(t)).join('\n');
const lines = (path: string): unknown[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

const sample = sampleData();
/**
 * Returns of the sample's payments, in the order they arrive: one whose `reported_at` is before
 * its date (invalid), one in time that cancels t-0004 (due 2025-07-04), one in time without
 * `reported_at`, and two halves of t-0010 (25.00 at `max_cashback`, due 2025-08-09) that arrive
 * after its payment day: clawbacks of 5.51 (half of it still earns 19.49) and 19.49, or
 * `late_return` when late returns are ignored.
 */
const RETURNS = [
  {
    return_id: 'r5',
    transaction_id: 't-0003',
    date: '2025-06-05T10:00:00',
    reported_at: '2025-06-04T10:00:00',
  },
  {
    return_id: 'r2',
    transaction_id: 't-0004',
    date: '2025-06-10T10:00:00',
    reported_at: '2025-06-12T10:00:00',
  },
  { return_id: 'r3', transaction_id: 't-0012', date: '2025-06-15T10:00:00', amount: '100' },
  {
    return_id: 'r1',
    transaction_id: 't-0010',
    date: '2025-06-20T10:00:00',
    amount: '649.5',
    reported_at: '2025-08-20T10:00:00',
  },
  {
    return_id: 'r4',
    transaction_id: 't-0010',
    date: '2025-06-25T10:00:00',
    amount: '649.5',
    reported_at: '2025-09-01T09:00:00',
  },
];
const COLUMNS = ['return_id', 'transaction_id', 'date', 'amount', 'reported_at'] as const;

/** The summary's liability as the command prints it, from `replay()`'s. */
function printed(l: LiabilitySummary): RegExp[] {
  const rows = [
    ['pending', l.pending],
    ['confirmed', l.confirmed],
    ['cancelled', l.cancelled],
    ['clawed back', l.clawedBack],
  ] as const;
  return [
    new RegExp(`^liability as of ${l.asOf}\\nstatus\\s+count\\s+cashback \\(EUR\\)$`, 'm'),
    ...rows.map(([name, f]) => new RegExp(`^${name}\\s+${f.count}\\s+${f.cashback}$`, 'm')),
  ];
}

/** Rows of a query as JSON: DECIMAL and DATE values as DuckDB prints them. */
async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

describe('cashback replay: late returns, clawbacks and the liability', () => {
  const data = { ...sample, returns: RETURNS };
  const want = replay(data);
  let inputs: string[];
  beforeAll(() => {
    inputs = [
      '--offers',
      file('offers.json', JSON.stringify(sample.offers)),
      '--customers',
      file('customers.json', JSON.stringify(sample.customers)),
      '--history',
      file('history.json', JSON.stringify(sample.history)),
      '--transactions',
      file('tx.ndjson', ndjson(sample.transactions)),
    ];
  });
  const cashback = (args: readonly string[]) => built.run(['replay', ...args]);

  it('has late returns, returns in time and an invalid reported_at to show', () => {
    expect(want.clawbacks.map((c) => [c.return_id, c.amount])).toEqual([
      ['r1', 5.51],
      ['r4', 19.49],
    ]);
    expect(want.adjustments.map((a) => a.return_id)).toEqual(['r2', 'r3']);
    expect(want.returnErrors.map((e) => [e.key, e.code])).toEqual([['r5', 'invalid_return']]);
    expect(want.summary.liability.clawedBack).toEqual({ count: 2, cashback: '25.00' });
    expect(want.summary.liability.cancelled).toEqual({ count: 1, cashback: '2.40' });
  });

  it("writes replay()'s clawbacks as CSV, NDJSON and JSON lines, and prints the liability after the summary", async () => {
    const outputs = {
      csv: join(work, 'clawbacks.csv'),
      ndjson: join(work, 'clawbacks.ndjson'),
      json: join(work, 'clawbacks.json'),
    };
    for (const [format, out] of Object.entries(outputs)) {
      const r = await cashback([
        ...inputs,
        '--returns',
        file('returns.json', JSON.stringify(RETURNS)),
        '--clawbacks',
        out,
      ]);
      expect(r.stderr, format).toBe('');
      expect(r.code, format).toBe(0);
      const got =
        format === 'csv'
          ? (parse(readFileSync(out, 'utf8'), { columns: true }) as Record<string, string>[]).map(
              (c) => ({
                ...c,
                offer_id: Number(c.offer_id),
                offer_revision: Number(c.offer_revision),
                amount: Number(c.amount),
              }),
            )
          : lines(out);
      expect(got, format).toEqual(want.clawbacks);
      // Every line printed before the liability existed, then the liability.
      expect(r.stdout).toMatch(/^clawed back\s+2$/m);
      expect(r.stdout).toMatch(/^late_return\s+0$/m);
      expect(r.stdout).toContain(
        `malformed lines skipped: 0\n\nliability as of ${want.summary.liability.asOf}\n`,
      );
      for (const line of printed(want.summary.liability)) expect(r.stdout).toMatch(line);
      expect(r.stdout.split('\n\n').at(-1)).toMatch(/^liability as of /);
    }
  });

  it('writes clawbacks as typed Parquet that DuckDB reads to the cent', async () => {
    const out = join(work, 'clawbacks.parquet');
    const r = await cashback([
      ...inputs,
      '--returns',
      file('returns2.json', JSON.stringify(RETURNS)),
      '--clawbacks',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const described = await rows(`DESCRIBE SELECT * FROM read_parquet('${out}')`);
    expect(Object.fromEntries(described.map((c) => [c.column_name, c.column_type]))).toEqual({
      return_id: 'VARCHAR',
      transaction_id: 'VARCHAR',
      customer_id: 'VARCHAR',
      offer_id: 'BIGINT',
      offer_revision: 'BIGINT',
      amount: 'DECIMAL(18,2)',
      date: 'VARCHAR',
      reported_at: 'VARCHAR',
    });
    const back = await rows(
      `SELECT return_id, amount::VARCHAR AS amount, offer_revision::INTEGER AS offer_revision, reported_at FROM read_parquet('${out}')`,
    );
    expect(back).toEqual(
      want.clawbacks.map((c) => ({
        return_id: c.return_id,
        amount: c.amount.toFixed(2),
        offer_revision: c.offer_revision,
        reported_at: c.reported_at,
      })),
    );
  });

  it('reads reported_at from CSV (an empty cell: none) and Parquet (null: none) as from JSON', async () => {
    const csv = file('returns.csv', stringify(RETURNS, { header: true, columns: [...COLUMNS] }));
    const parquet = file(
      'returns.parquet',
      new Uint8Array(
        parquetWriteBuffer({
          columnData: COLUMNS.map((name) => ({
            name,
            data: RETURNS.map((r) => (r as Record<string, unknown>)[name] ?? null),
            type: 'STRING' as const,
          })),
        }),
      ),
    );
    for (const path of [csv, parquet]) {
      const out = join(work, `read-${path.endsWith('csv') ? 'csv' : 'parquet'}.ndjson`);
      const errors = join(work, `read-errors-${path.endsWith('csv') ? 'csv' : 'parquet'}.ndjson`);
      const r = await cashback([
        ...inputs,
        '--returns',
        path,
        '--clawbacks',
        out,
        '--return-errors',
        errors,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(lines(out), path).toEqual(want.clawbacks);
      expect(lines(errors), path).toEqual(want.returnErrors);
      const summary = JSON.parse(r.stdout) as { returns: unknown; liability: unknown };
      expect(summary.returns).toEqual(want.summary.returns);
      expect(summary.liability).toEqual(want.summary.liability);
    }
  });

  it('with --late-returns ignore answers late_return and takes nothing back, as replay() does', async () => {
    const ignored = replay(data, { lateReturns: 'ignore' });
    expect(ignored.clawbacks).toEqual([]);
    const out = join(work, 'ignored.csv');
    const errors = join(work, 'ignored-errors.ndjson');
    const r = await cashback([
      ...inputs,
      '--returns',
      file('returns3.json', JSON.stringify(RETURNS)),
      '--late-returns',
      'ignore',
      '--clawbacks',
      out,
      '--return-errors',
      errors,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(
      'return_id,transaction_id,customer_id,offer_id,offer_revision,amount,date,reported_at\n',
    );
    expect(lines(errors)).toEqual(ignored.returnErrors);
    expect(ignored.returnErrors.filter((e) => e.code === 'late_return')).toHaveLength(2);
    expect(r.stdout).toMatch(/^late_return\s+2$/m);
    for (const line of printed(ignored.summary.liability)) expect(r.stdout).toMatch(line);
  });

  it('with --as-of splits the cashback as of that instant, as replay() does, and leaves out returns that arrived later', async () => {
    for (const asOf of ['2025-07-01T00:00:00', '2025-08-20T10:00:00', '2025-08-20T09:00:00Z']) {
      const at = replay(data, { asOf });
      const r = await cashback([
        ...inputs,
        '--returns',
        file('returns4.json', JSON.stringify(RETURNS)),
        '--as-of',
        asOf,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).liability, asOf).toEqual(at.summary.liability);
    }
    expect(replay(data, { asOf: '2025-07-01T00:00:00' }).summary.liability.clawedBack.count).toBe(
      0,
    );
    expect(replay(data, { asOf: '2025-08-20T10:00:00' }).summary.liability.clawedBack.count).toBe(
      1,
    );
  });

  it('ends with one line naming the flag and exit code 2 for a bad --as-of, --late-returns or --clawbacks', async () => {
    const bad = [
      [
        ['--as-of', '2025-02-30T00:00:00'],
        /^cashback: --as-of is not a real calendar date.*'2025-02-30T00:00:00'\n$/,
      ],
      [['--as-of', 'yesterday'], /^cashback: --as-of must be a date-time .*'yesterday'\n$/],
      [
        ['--late-returns', 'keep'],
        /^cashback: --late-returns must be 'clawback' or 'ignore', got 'keep'\n$/,
      ],
      [
        ['--clawbacks', join(work, 'c.csv')],
        /^cashback: --adjustments, --clawbacks and --return-errors need --returns\n$/,
      ],
    ] as const;
    for (const [args, message] of bad) {
      const r = await cashback([...inputs, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });

  it("gives one worker's summary, liability included, with 2 workers, with and without --as-of", async () => {
    for (const extra of [[], ['--as-of', '2025-06-17T12:00:00']]) {
      const runs = [];
      for (const workers of ['1', '2']) {
        const r = await cashback([...inputs, '--workers', workers, ...extra]);
        expect(r.code, r.stderr).toBe(0);
        runs.push(r.stdout);
      }
      expect(runs[1]).toBe(runs[0]);
      const { returns: _, ...withoutReturns } = data;
      const one = replay(withoutReturns, extra.length === 0 ? {} : { asOf: extra[1] as string });
      for (const line of printed(one.summary.liability)) expect(runs[0]).toMatch(line);
    }
  });
});

describe("cashback backtest: --as-of, --late-returns and both sets' liability", () => {
  it("prints, gives in --json and reports both sets' liability as backtest() does", async () => {
    const { offers, ...shared } = sample;
    const candidate = doubledOffers();
    const args = [
      'backtest',
      '--baseline',
      file('b-offers.json', JSON.stringify(offers)),
      '--candidate',
      file('b-candidate.json', JSON.stringify(candidate)),
      '--customers',
      file('b-customers.json', JSON.stringify(sample.customers)),
      '--history',
      file('b-history.json', JSON.stringify(sample.history)),
      '--transactions',
      file('b-tx.ndjson', ndjson(sample.transactions)),
      '--returns',
      file('b-returns.csv', stringify(RETURNS, { header: true, columns: [...COLUMNS] })),
    ];
    const runs: { asOf?: string; lateReturns?: 'clawback' | 'ignore' }[] = [
      {},
      { asOf: '2025-07-01T00:00:00' },
      { lateReturns: 'ignore', asOf: '2025-12-31T00:00:00' },
    ];
    for (const options of runs) {
      const flags: string[] = [
        ...(options.asOf === undefined ? [] : ['--as-of', options.asOf]),
        ...(options.lateReturns === undefined ? [] : ['--late-returns', options.lateReturns]),
      ];
      const want = await backtest(
        { ...shared, baseline: offers, candidate, returns: RETURNS },
        options,
      );
      const json = await built.run([...args, ...flags, '--json']);
      expect(json.code, json.stderr).toBe(0);
      const got = JSON.parse(json.stdout) as typeof want;
      expect(got.liability).toEqual(want.liability);
      expect(got.summaries.candidate.liability).toEqual(want.summaries.candidate.liability);
      const report = join(work, 'b-report.html');
      const text = await built.run([...args, ...flags, '--report', report]);
      expect(text.code, text.stderr).toBe(0);
      const part = text.stdout.split('\n\n').find((t) => t.startsWith('liability as of'));
      expect(part).toBeDefined();
      expect(text.stdout.endsWith(part as string)).toBe(true);
      expect(part).toContain(
        `liability as of ${want.liability.asOf} (baseline | candidate | difference)`,
      );
      const page = readFileSync(report, 'utf8');
      expect(page).toContain(`<h2>Liability as of ${want.liability.asOf}</h2>`);
      for (const r of want.liability.byStatus) {
        const label = r.key === 'clawedBack' ? 'clawed back' : r.key;
        const figures = [r.baseline, r.candidate, r.difference].flatMap((f) => [
          String(f.count),
          f.cashback,
        ]);
        expect(part).toMatch(new RegExp(`^${label}\\s+${figures.join('\\s+')}$`, 'm'));
        expect(page).toContain(
          `<tr><th>${label}</th>${figures.map((c) => `<td>${c}</td>`).join('')}</tr>`,
        );
      }
    }
  });

  it('ends with one line naming the flag and exit code 2 for a bad --as-of or --late-returns', async () => {
    const base = [
      'backtest',
      '--baseline',
      file('x-offers.json', JSON.stringify(sample.offers)),
      '--candidate',
      file('x-offers.json', JSON.stringify(sample.offers)),
      '--customers',
      file('x-customers.json', JSON.stringify(sample.customers)),
      '--transactions',
      file('x-tx.ndjson', ndjson(sample.transactions)),
    ];
    const asOf = await built.run([...base, '--as-of', '2025-06-01 10:00']);
    expect(asOf.code).toBe(2);
    expect(asOf.stderr).toMatch(/^cashback: --as-of must be a date-time .*'2025-06-01 10:00'\n$/);
    const late = await built.run([...base, '--late-returns', 'CLAWBACK']);
    expect(late.code).toBe(2);
    expect(late.stderr).toBe(
      "cashback: --late-returns must be 'clawback' or 'ignore', got 'CLAWBACK'\n",
    );
  });
});
