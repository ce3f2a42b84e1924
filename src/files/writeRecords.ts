import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import Papa from 'papaparse';
import { FileReadError, formatOf } from './readRecords.js';

/** Writes flat records to a CSV or NDJSON file (by its name, gzip when it ends in `.gz`). */
export interface RecordWriter {
  /** Writes one record (buffered). */
  write(record: object): void;
  /** Resolves when the file can take more (at once unless its buffer is full). */
  drained(): Promise<void>;
  /** Flushes and closes the file. */
  close(): Promise<void>;
}

/**
 * Opens `file` for records with the given columns: CSV with a header row, or one JSON object a
 * line (`.ndjson`, `.jsonl`, `.json`). Parquet output is not written.
 * @param file - the path
 * @param columns - the CSV header, in order
 * @returns the writer
 * @throws TypeError for a name that is neither CSV nor NDJSON
 */
export function createRecordWriter(file: string, columns: readonly string[]): RecordWriter {
  const { format, gzip } = formatOf(file);
  if (format === 'parquet') {
    throw new TypeError(`cannot write ${file}: outputs are CSV (.csv) or NDJSON (.ndjson)`);
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
  // CSV rows wait for the end of a chunk (drained) and are quoted by one Papa Parse call.
  const rows: object[] = [];
  const flush = (): void => {
    if (rows.length === 0) return;
    sink.write(`${Papa.unparse(rows, { columns: [...columns], header: false, newline: '\n' })}\n`);
    rows.length = 0;
  };
  if (format === 'csv') sink.write(`${Papa.unparse([columns], { newline: '\n' })}\n`);
  const finished = once(out, 'close');
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
