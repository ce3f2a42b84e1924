/**
 * The Parquet record writer behind `cashback replay --out x.parquet`, read back by DuckDB
 * (@duckdb/node-api), an independent reader: decimals come back to the last digit whatever their
 * size (property), dates as the days written, an empty file as its schema, 100,000 rows a row
 * group; a value that does not fit its column is refused naming the column.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordWriter, type RecordColumn } from '../../src/files/writeRecords.js';

const dir = mkdtempSync(join(tmpdir(), 'cashback-parquet-'));
let duck: DuckDBConnection;
let files = 0;

beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});

afterAll(() => {
  duck?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `records` to a new Parquet file with `columns`; its path. */
async function written(columns: readonly RecordColumn[], records: readonly object[]) {
  const path = join(dir, `f${files++}.parquet`);
  const writer = createRecordWriter(path, columns);
  for (const r of records) writer.write(r);
  await writer.drained();
  await writer.close();
  return path;
}

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

const CASHBACK: RecordColumn = { name: 'cashback', type: 'decimal', scale: 2 };

describe('Parquet records read by DuckDB', () => {
  it('gives back any decimal of up to 15 digits to the cent, from a number or a string', async () => {
    const decimal = fc
      .bigInt({ min: 0n, max: 10n ** 15n - 1n })
      .map((cents) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`);
    await fc.assert(
      fc.asyncProperty(fc.array(decimal, { minLength: 1, maxLength: 50 }), async (values) => {
        const path = await written(
          [CASHBACK, { name: 'text', type: 'decimal', scale: 2 }],
          values.map((v) => ({ cashback: Number(v), text: v })),
        );
        const back = await rows(`SELECT cashback, text FROM read_parquet('${path}')`);
        expect(back).toEqual(values.map((v) => ({ cashback: v, text: v })));
      }),
      { numRuns: 40 },
    );
  });

  it('writes text, whole numbers and dates in their types', async () => {
    const columns: RecordColumn[] = [
      { name: 'id', type: 'text' },
      { name: 'offer', type: 'integer' },
      { name: 'day', type: 'date' },
    ];
    const path = await written(columns, [
      { id: 'é, "quoted"\nline', offer: 2 ** 53 - 1, day: '2024-02-29' },
      { id: '', offer: 1, day: '1969-12-31' },
    ]);
    expect(
      await rows(
        `SELECT typeof(id) AS a, typeof(offer) AS b, typeof(day) AS c FROM '${path}' LIMIT 1`,
      ),
    ).toEqual([{ a: 'VARCHAR', b: 'BIGINT', c: 'DATE' }]);
    expect(await rows(`SELECT * FROM read_parquet('${path}')`)).toEqual([
      { id: 'é, "quoted"\nline', offer: String(2 ** 53 - 1), day: '2024-02-29' },
      { id: '', offer: '1', day: '1969-12-31' },
    ]);
  });

  it('writes a file of no rows with its columns', async () => {
    const path = await written([CASHBACK, { name: 'day', type: 'date' }], []);
    const described = await rows(`DESCRIBE SELECT * FROM read_parquet('${path}')`);
    expect(described.map((c) => [c.column_name, c.column_type])).toEqual([
      ['cashback', 'DECIMAL(18,2)'],
      ['day', 'DATE'],
    ]);
    expect(await rows(`SELECT count(*)::INTEGER AS n FROM read_parquet('${path}')`)).toEqual([
      { n: 0 },
    ]);
  });

  it('writes a row group every 100,000 rows', async () => {
    const records = Array.from({ length: 100_001 }, (_, i) => ({ cashback: (i % 100) / 100 }));
    const path = await written([CASHBACK], records);
    expect(
      await rows(
        `SELECT count(DISTINCT row_group_id)::INTEGER AS groups FROM parquet_metadata('${path}')`,
      ),
    ).toEqual([{ groups: 2 }]);
    expect(
      await rows(
        `SELECT count(*)::INTEGER AS n, sum(cashback)::VARCHAR AS total FROM read_parquet('${path}')`,
      ),
    ).toEqual([{ n: 100_001, total: '49500.00' }]);
  });

  it.each([
    [
      CASHBACK,
      0.125,
      'column cashback: 0.125 is not a decimal with at most 2 digits after the point',
    ],
    [CASHBACK, '1e20', 'column cashback: "1e20" is over 18 digits'],
    [CASHBACK, 'twelve', 'column cashback: "twelve" is not a decimal'],
    [{ name: 'offer', type: 'integer' } as const, 1.5, 'column offer: 1.5 is not a whole number'],
    [
      { name: 'day', type: 'date' } as const,
      '2025-6-1',
      'column day: "2025-6-1" is not a YYYY-MM-DD date',
    ],
  ])('refuses a value that does not fit the column (%j, %j)', async (column, value, message) => {
    const writer = createRecordWriter(join(dir, `bad${files++}.parquet`), [column]);
    expect(() => writer.write({ [column.name]: value })).toThrow(message);
    await writer.close();
  });
});
