/**
 * `cashback replay --out x.parquet --errors y.parquet` read back by an independent reader, DuckDB
 * (@duckdb/node-api): the columns have the types docs/replay.md states (cashback DECIMAL(18,2),
 * payment_date DATE) and hold replay()'s payments and errors, every cashback to the cent. Outputs
 * the command cannot write end with one line and exit code 2.
 *
 * The command is built once (the `cli` entry, ESM) into a temporary directory by `buildCli`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money, replay } from '../../src/index.js';
import { generatedData, nested, sampleData } from '../files/generated.js';
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

/** Writes `content` into the work folder; the path. */
const file = (name: string, content: string): string => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};
const ndjson = (items: readonly unknown[]): string =>
  items.map((t) => JSON.stringify(t)).join('\n');

/** Rows of a query as JSON: DECIMAL and DATE values as DuckDB prints them. */
async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

/** Column name → DuckDB type of a Parquet file. */
async function columnTypes(path: string): Promise<Record<string, unknown>> {
  const described = await rows(`DESCRIBE SELECT * FROM read_parquet('${path}')`);
  return Object.fromEntries(described.map((c) => [c.column_name, c.column_type]));
}

/** Replays `data` with the command, payments and errors to Parquet. */
async function replayToParquet(
  name: string,
  data: { offers: unknown[]; customers: unknown[]; history?: unknown[]; transactions: unknown[] },
): Promise<{ out: string; errors: string }> {
  const out = join(work, `${name}-payments.parquet`);
  const errors = join(work, `${name}-errors.parquet`);
  const args = [
    'replay',
    '--offers',
    file(`${name}-offers.json`, JSON.stringify(data.offers)),
    '--customers',
    file(`${name}-customers.ndjson`, ndjson(data.customers)),
    ...(data.history === undefined
      ? []
      : ['--history', file(`${name}-history.ndjson`, ndjson(data.history))]),
    '--transactions',
    file(`${name}-tx.ndjson`, ndjson(data.transactions)),
    '--out',
    out,
    '--errors',
    errors,
  ];
  const run = await built.run(args);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return { out, errors };
}

/** replay()'s payments as DuckDB gives them back: cashback with two decimals, as text. */
const paymentsAsRead = (payments: readonly Record<string, unknown>[]) =>
  payments.map((p) => ({
    transaction_id: p.transaction_id,
    customer_id: p.customer_id,
    offer_id: String(p.offer_id),
    cashback: new Money(String(p.cashback)).toFixed(2),
    payment_date: p.payment_date,
  }));

describe('cashback replay to Parquet, read by DuckDB', () => {
  it("holds replay()'s payments and errors of the sample, in the stated column types", async () => {
    const sample = sampleData();
    const want = replay(sample);
    const { out, errors } = await replayToParquet('sample', sample);
    expect(await columnTypes(out)).toEqual({
      transaction_id: 'VARCHAR',
      customer_id: 'VARCHAR',
      offer_id: 'BIGINT',
      cashback: 'DECIMAL(18,2)',
      payment_date: 'DATE',
    });
    expect(await columnTypes(errors)).toEqual({
      key: 'VARCHAR',
      code: 'VARCHAR',
      message: 'VARCHAR',
    });
    expect(await rows(`SELECT * FROM read_parquet('${out}')`)).toEqual(
      paymentsAsRead(want.payments as unknown as Record<string, unknown>[]),
    );
    expect(await rows(`SELECT * FROM read_parquet('${out}')`)).toContainEqual({
      transaction_id: 't-0010',
      customer_id: 'c-002',
      offer_id: '5',
      cashback: '25.00',
      payment_date: '2025-08-09',
    });
    expect(
      await rows(`SELECT sum(cashback)::VARCHAR AS total FROM read_parquet('${out}')`),
    ).toEqual([{ total: '38.52' }]);
    expect(await rows(`SELECT * FROM read_parquet('${errors}')`)).toEqual(want.errors);
  });

  it('keeps every cent of thousands of payments: the sum is the replay total', async () => {
    const data = generatedData(31, 150, 4000);
    const transactions = data.transactions.map(nested);
    const want = replay({ ...data, transactions });
    expect(want.summary.paid).toBeGreaterThan(500);
    const { out } = await replayToParquet('generated', { ...data, transactions });
    expect(await rows(`SELECT * FROM read_parquet('${out}')`)).toEqual(
      paymentsAsRead(want.payments as unknown as Record<string, unknown>[]),
    );
    expect(
      await rows(`SELECT sum(cashback)::VARCHAR AS total FROM read_parquet('${out}')`),
    ).toEqual([{ total: want.summary.totalCashback }]);
  });

  it.each([
    ['a gzip-compressed Parquet name', 'pay.parquet.gz', 'a Parquet file is compressed inside'],
    ['a name of no format', 'pay.txt', 'cannot tell the format of'],
    ['a Parquet file in a missing folder', 'missing/pay.parquet', 'no such file or directory'],
    ['a CSV file in a missing folder', 'missing/pay.csv', 'no such file or directory'],
  ])('ends with one line and exit code 2 for %s', async (_, name, message) => {
    const sample = sampleData();
    const r = await built.run([
      'replay',
      '--offers',
      file('bad-offers.json', JSON.stringify(sample.offers)),
      '--customers',
      file('bad-customers.ndjson', ndjson(sample.customers)),
      '--transactions',
      file('bad-tx.ndjson', ndjson(sample.transactions)),
      '--out',
      join(work, name),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
