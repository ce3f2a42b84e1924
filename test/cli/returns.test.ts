/**
 * `cashback replay --returns` and `cashback backtest --returns` as users run them: the built
 * command as a child process. Replay's adjustments and return errors equal `replay()`'s on the
 * same data, whatever the returns file's format; the summaries give cashback as decided and net;
 * misuse exits with code 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtest, replay } from '../../src/index.js';
import { sampleData } from '../files/generated.js';
import { type BuiltCli, buildCli } from './_buildCli.js';

let built: BuiltCli | undefined;
let work: string;

beforeAll(async () => {
  built = await buildCli();
  work = built.dir;
}, 60_000);

afterAll(() => built?.remove());

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
const cashback = (args: readonly string[]) => (built as BuiltCli).run(['replay', ...args]);

/** A day after `date` (a `YYYY-MM-DDTHH:mm:ss` text), same time. */
function dayAfter(date: string, days = 1): string {
  const d = new Date(`${date.slice(0, 19)}Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 19);
}

describe('cashback replay --returns', () => {
  const sample = sampleData();
  const first = replay(sample);
  const dates = new Map(
    (sample.transactions as { transaction_id: string; date: string }[]).map((t) => [
      t.transaction_id,
      t.date,
    ]),
  );
  const [p1, p2, p3] = first.payments;
  const at = (id: string | undefined, days = 1) => dayAfter(dates.get(id ?? '') ?? '', days);
  const returns = [
    { return_id: 'r1', transaction_id: p1?.transaction_id, date: at(p1?.transaction_id) },
    {
      return_id: 'r2',
      transaction_id: p2?.transaction_id,
      date: at(p2?.transaction_id),
      amount: '1',
    },
    { return_id: 'r3', transaction_id: p3?.transaction_id, date: at(p3?.transaction_id, 400) },
    { return_id: 'r4', transaction_id: 'nope', date: '2025-06-01T00:00:00' },
    { return_id: 'r1', transaction_id: p2?.transaction_id, date: at(p2?.transaction_id, 2) },
  ];
  const want = replay({ ...sample, returns });
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

  it("writes replay()'s adjustments and return errors, and the summary as decided and net", async () => {
    expect(want.adjustments.length).toBeGreaterThan(0);
    const adjustments = join(work, 'adjustments.ndjson');
    const returnErrors = join(work, 'return-errors.csv');
    const r = await cashback([
      ...inputs,
      '--returns',
      file('returns.ndjson.gz', gzipSync(ndjson(returns))),
      '--adjustments',
      adjustments,
      '--return-errors',
      returnErrors,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lines(adjustments)).toEqual(want.adjustments);
    expect(parse(readFileSync(returnErrors, 'utf8'), { columns: true })).toEqual(want.returnErrors);
    const net = want.summary.returns?.netCashback;
    expect(r.stdout).toContain(`cashback total as decided: ${want.summary.totalCashback} EUR`);
    expect(r.stdout).toContain(`cashback net of returns: ${net} EUR`);
    expect(r.stdout).toMatch(new RegExp(`^adjusted\\s+${want.adjustments.length}$`, 'm'));
  });

  it('reads returns as CSV, JSON and Parquet alike and gives the net in --json', async () => {
    const columns = ['return_id', 'transaction_id', 'date', 'amount'] as const;
    const parquet = file(
      'returns.parquet',
      new Uint8Array(
        parquetWriteBuffer({
          columnData: columns.map((name) => ({
            name,
            data: returns.map((r) => (r as Record<string, unknown>)[name] ?? null),
            type: 'STRING' as const,
          })),
        }),
      ),
    );
    const csv = file(
      'returns.csv',
      stringify(returns, {
        header: true,
        columns: ['return_id', 'transaction_id', 'date', 'amount'],
      }),
    );
    const json = file('returns.json', JSON.stringify(returns));
    for (const path of [csv, json, parquet]) {
      const r = await cashback([...inputs, '--returns', path, '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ returns: want.summary.returns });
    }
  });

  it('refuses --adjustments without --returns, and --returns with workers', async () => {
    const alone = await cashback([...inputs, '--adjustments', join(work, 'a.csv')]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe(
      'cashback: --adjustments, --clawbacks and --return-errors need --returns\n',
    );
    const workers = await cashback([
      ...inputs,
      '--returns',
      file('r.json', JSON.stringify(returns)),
      '--workers',
      '2',
    ]);
    expect(workers.code).toBe(2);
    expect(workers.stderr).toMatch(/--returns cannot be used with --workers/);
  });
});

describe('cashback backtest --returns', () => {
  it('gives cashback as decided and net of returns, as backtest() does', async () => {
    const sample = sampleData();
    const [p1] = replay(sample).payments;
    const tx = (sample.transactions as { transaction_id: string; date: string }[]).find(
      (t) => t.transaction_id === p1?.transaction_id,
    );
    const returns = [{ return_id: 'r1', transaction_id: tx?.transaction_id, date: tx?.date }];
    const { offers, ...shared } = sample;
    const want = await backtest({ ...shared, baseline: offers, candidate: offers, returns });
    const args = [
      'backtest',
      '--baseline',
      file('b-offers.json', JSON.stringify(offers)),
      '--candidate',
      file('c-offers.json', JSON.stringify(offers)),
      '--customers',
      file('b-customers.json', JSON.stringify(sample.customers)),
      '--history',
      file('b-history.json', JSON.stringify(sample.history)),
      '--transactions',
      file('b-tx.ndjson', ndjson(sample.transactions)),
      '--returns',
      file('b-returns.csv', stringify(returns, { header: true })),
    ];
    const json = await (built as BuiltCli).run([...args, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).returns).toEqual(want.returns);
    const text = await (built as BuiltCli).run(args);
    expect(text.stdout).toMatch(
      new RegExp(
        `^net of returns\\s+${want.returns?.baseline.net}\\s+${want.returns?.candidate.net}\\s+0\\.00$`,
        'm',
      ),
    );
  });
});
