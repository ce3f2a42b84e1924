import type { SchemaElement } from 'hyparquet';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { Money } from '../model/money.js';
import { FileReadError } from './readRecords.js';
import type { RecordColumn, RecordWriter } from './recordWriter.js';

/** Rows buffered before they are written as one row group. */
const ROW_GROUP = 100_000;

/** Digits of a DECIMAL stored as a 64-bit integer. */
const PRECISION = 18;

const DAY_MS = 86_400_000;

/** The Parquet schema element of a column (docs/replay.md, "Parquet output"). */
function schemaElement(column: RecordColumn): SchemaElement {
  const { name } = column;
  const repetition_type = 'OPTIONAL';
  switch (column.type) {
    case 'text':
      return {
        name,
        repetition_type,
        type: 'BYTE_ARRAY',
        converted_type: 'UTF8',
        logical_type: { type: 'STRING' },
      };
    case 'integer':
      return { name, repetition_type, type: 'INT64' };
    case 'date':
      return {
        name,
        repetition_type,
        type: 'INT32',
        converted_type: 'DATE',
        logical_type: { type: 'DATE' },
      };
    case 'decimal': {
      const scale = column.scale ?? 0;
      return {
        name,
        repetition_type,
        type: 'INT64',
        converted_type: 'DECIMAL',
        logical_type: { type: 'DECIMAL', precision: PRECISION, scale },
        precision: PRECISION,
        scale,
      };
    }
  }
}

/**
 * A value as the column stores it: a decimal as its unscaled integer (exact: never through a
 * float, and never rounded), a date as days since 1970-01-01.
 * @throws TypeError naming the column and the value when it does not fit the column's type
 */
function stored(column: RecordColumn, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const wrong = (why: string): TypeError =>
    new TypeError(`column ${column.name}: ${JSON.stringify(value)} is ${why}`);
  switch (column.type) {
    case 'text':
      return String(value);
    case 'integer':
      if (!Number.isSafeInteger(value)) throw wrong('not a whole number');
      return BigInt(value as number);
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(value));
      if (m === null) throw wrong('not a YYYY-MM-DD date');
      return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS;
    }
    case 'decimal': {
      const scale = column.scale ?? 0;
      let d: InstanceType<typeof Money>;
      try {
        d = new Money(String(value));
      } catch {
        throw wrong('not a decimal');
      }
      if (!d.isFinite() || d.decimalPlaces() > scale) {
        throw wrong(`not a decimal with at most ${scale} digits after the point`);
      }
      const unscaled = d.times(Money.pow(10, scale));
      if (unscaled.abs().gte(Money.pow(10, PRECISION))) throw wrong(`over ${PRECISION} digits`);
      return BigInt(unscaled.toFixed(0));
    }
  }
}

/**
 * Opens `file` for records as Parquet, one column per `columns` entry typed as it says; the
 * records are written a row group of 100,000 at a time, and the file is complete on `close()`.
 * @param file - the path
 * @param columns - the columns, in order
 * @returns the writer
 * @throws FileReadError when the file cannot be created
 */
export function createParquetRecordWriter(
  file: string,
  columns: readonly RecordColumn[],
): RecordWriter {
  const fail = (err: unknown): FileReadError =>
    new FileReadError(file, `cannot write: ${err instanceof Error ? err.message : String(err)}`);
  let writer: ParquetWriter;
  try {
    writer = new ParquetWriter({
      writer: fileWriter(file),
      schema: [{ name: 'root', num_children: columns.length }, ...columns.map(schemaElement)],
    });
  } catch (err) {
    throw fail(err);
  }
  const data: unknown[][] = columns.map(() => []);
  let rows = 0;
  const flush = (): void => {
    if (rows === 0) return;
    const columnData = columns.map((c, i) => ({ name: c.name, data: data[i] as unknown[] }));
    try {
      // Synchronous: fileWriter has no flush(), the one step write() would wait for.
      void writer.write({ columnData, rowGroupSize: ROW_GROUP });
    } catch (err) {
      throw fail(err);
    }
    for (const d of data) d.length = 0;
    rows = 0;
  };
  return {
    write(record) {
      const r = record as Record<string, unknown>;
      // Every value is converted before any is kept: a bad one leaves the columns even.
      const row = columns.map((c) => stored(c, r[c.name]));
      for (const [i, v] of row.entries()) data[i]?.push(v);
      if (++rows >= ROW_GROUP) flush();
    },
    async drained() {},
    async close() {
      flush();
      try {
        await writer.finish();
      } catch (err) {
        throw fail(err);
      }
    },
  };
}
