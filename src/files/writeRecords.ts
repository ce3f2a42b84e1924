import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import Papa from 'papaparse';
import { createParquetRecordWriter } from './parquetRecords.js';
import { FileReadError, formatOf } from './readRecords.js';
import type { RecordColumn, RecordWriter } from './recordWriter.js';

export type { RecordColumn, RecordWriter } from './recordWriter.js';

/**
 * Opens `file` for records with the given columns: CSV with a header row, one JSON object a line
 * (`.ndjson`, `.jsonl`, `.json`), either gzip-compressed when the name ends in `.gz`, or Parquet
 * (`.parquet`, typed by `columns`).
 * @param file - the path
 * @param columns - the columns, in order: the CSV header, the Parquet schema
 * @returns the writer
 * @throws TypeError for a name that is none of these, or `.parquet.gz`
 * @throws FileReadError for a Parquet file that cannot be created
 */
export function createRecordWriter(file: string, columns: readonly RecordColumn[]): RecordWriter {
  const { format, gzip } = formatOf(file);
  if (format === 'parquet') {
    if (gzip) {
      throw new TypeError(
        `cannot write ${file}: a Parquet file is compressed inside; name it .parquet`,
      );
    }
    return createParquetRecordWriter(file, columns);
  }
  const out: WriteStream = createWriteStream(file);
  let failure: Error | undefined;
  out.on('error', (err) => {
    failure = new FileReadError(file, `cannot write: ${err.message}`);
  });
  let sink: Writable = out;
  if (gzip) {
    const z = createGzip();
    z.pipe(out);
    sink = z;
  }
  const names = columns.map((c) => c.name);
  // CSV rows wait for the end of a chunk (drained) and are quoted by one Papa Parse call.
  const rows: object[] = [];
  const flush = (): void => {
    if (rows.length === 0) return;
    sink.write(`${Papa.unparse(rows, { columns: names, header: false, newline: '\n' })}\n`);
    rows.length = 0;
  };
  if (format === 'csv') sink.write(`${Papa.unparse([names], { newline: '\n' })}\n`);
  // Not events.once: it rejects on 'error', which nothing awaits before close() (the error is
  // kept in `failure`); a destroyed stream still emits 'close'.
  const finished = new Promise<void>((resolve) => out.once('close', () => resolve()));
  return {
    write(record) {
      if (failure !== undefined) throw failure;
      if (format === 'csv') rows.push(record);
      else sink.write(`${JSON.stringify(record)}\n`);
    },
    async drained() {
      if (failure !== undefined) throw failure;
      flush();
      if (sink.writableNeedDrain) await once(sink, 'drain');
    },
    async close() {
      flush();
      sink.end();
      await finished;
      if (failure !== undefined) throw failure;
    },
  };
}
