import { open, stat } from 'node:fs/promises';
import { assertKnownKeys } from '../model/knownKeys.js';
import { byteStream } from './byteStream.js';
import { csvBatches } from './csv.js';
import { fileFailure } from './fileFailure.js';
import { jsonBatches } from './jsonArray.js';
import { type ReadLimits, resolveReadLimits } from './limits.js';
import { ndjsonBatches } from './ndjson.js';
import { parquetBatches } from './parquet.js';
import { FileReadError, type FileRecord, type MalformedRecord } from './records.js';

export { FileReadError, type FileRecord, type MalformedRecord } from './records.js';

/** The record formats the readers know. @public */
export type FileFormat = 'json' | 'ndjson' | 'csv' | 'parquet';

/** Options of `readRecords`. @public */
export interface ReadRecordsOptions {
  /**
   * The format; `.json`, `.ndjson`, `.jsonl`, `.csv` and `.parquet` (before an optional `.gz`)
   * name it otherwise.
   * @defaultValue from the file name
   */
  readonly format?: FileFormat;
  /** Called with the number of bytes of the file read so far (before decompression). */
  readonly onBytes?: (bytes: number) => void;
  /**
   * The longest line, CSV field and JSON value, and the deepest JSON nesting; past one, the read
   * ends with a `ReadLimitError` (docs/replay.md, Limits).
   * @defaultValue each limit's own default (see {@link ReadLimits})
   */
  readonly limits?: ReadLimits;
}

const READ_OPTION_KEYS: readonly string[] = ['format', 'onBytes', 'limits'];
const EXTENSIONS: Readonly<Record<string, FileFormat>> = {
  json: 'json',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
  csv: 'csv',
  parquet: 'parquet',
};

/**
 * The format and compression a file name says: `payments.csv`, `tx.ndjson.gz`, `rows.parquet`.
 * @param file - the file name
 * @param format - a format that overrides the extension
 * @returns the format and whether the file is gzip-compressed
 * @throws TypeError when neither the name nor `format` gives a known format
 * @public
 */
export function formatOf(
  file: string,
  format?: FileFormat,
): { readonly format: FileFormat; readonly gzip: boolean } {
  const parts = file.toLowerCase().split('/').at(-1)?.split('.') ?? [];
  const gzip = parts.at(-1) === 'gz';
  if (gzip) parts.pop();
  const found = format ?? EXTENSIONS[parts.length > 1 ? (parts.at(-1) ?? '') : ''];
  if (found === undefined || !Object.values(EXTENSIONS).includes(found)) {
    throw new TypeError(
      `cannot tell the format of ${file}: name it .json, .ndjson, .jsonl, .csv or .parquet ` +
        '(optionally .gz), or give the format',
    );
  }
  return { format: found, gzip };
}

/**
 * The size of a file in bytes, once it is known to be readable.
 * @param file - the path
 * @returns its size
 * @throws FileReadError for a missing or unreadable file, or a directory
 * @public
 */
export async function fileSize(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    const handle = await open(file, 'r');
    await handle.close();
    return info.size;
  } catch (err) {
    throw new FileReadError(file, fileFailure(err));
  }
}

/**
 * The records of a file as batches (NDJSON, CSV, JSON: one per piece read; Parquet: up to 100).
 * @param file - the path
 * @param options - as for {@link readRecords}
 * @returns the batches
 * @throws as {@link readRecords}
 */
export async function* readRecordBatches(
  file: string,
  options: ReadRecordsOptions = {},
): AsyncGenerator<(FileRecord | MalformedRecord)[]> {
  assertKnownKeys(options, READ_OPTION_KEYS, 'readRecords options');
  const limits = resolveReadLimits(options.limits);
  const { format, gzip } = formatOf(file, options.format);
  const size = await fileSize(file);
  try {
    if (format === 'parquet') {
      yield* parquetBatches(file, gzip, size, options.onBytes);
      return;
    }
    const bytes = byteStream(file, gzip, options.onBytes);
    if (format === 'ndjson') yield* ndjsonBatches(file, bytes, limits.maxLineBytes);
    else if (format === 'csv') yield* csvBatches(file, bytes, limits);
    else yield* jsonBatches(file, bytes, limits);
  } catch (err) {
    if (err instanceof FileReadError) throw err;
    throw new FileReadError(file, err instanceof Error ? err.message : String(err));
  }
}

/**
 * Reads the records of a file one by one, in file order: a JSON array, NDJSON (one JSON value a
 * line; blank lines skipped), CSV (a header row; `merchant.name` columns make nested fields, empty
 * cells are left out, values stay strings) or Parquet (one row group in memory at a time), each
 * gzip-compressed or not but Parquet. A line or row that cannot be read comes as a
 * {@link MalformedRecord} and reading goes on. Every format streams: memory does not grow with
 * the file. A JSON array is one document, so a syntax error in it ends the file with a
 * `FileReadError` naming the last whole item, after the items before it. A line, CSV field or
 * JSON value past its limit, or JSON nested too deep, ends the file with a `ReadLimitError`
 * naming its line: the file is not read further (docs/replay.md, Limits).
 * @param file - the path
 * @param options - the format, when the name does not say it, a byte counter and the limits
 * @returns the records and malformed lines, in file order
 * @throws FileReadError (when iterated) for a file that cannot be opened or read, a JSON file that
 *   is not a JSON array or not valid JSON, a file that is not Parquet; ReadLimitError (a
 *   FileReadError) past a limit; TypeError for an unknown format, option or limit, RangeError for
 *   a limit that is not a whole number of at least 1
 * @example
 * ```ts
 * for await (const r of readRecords('transactions.ndjson.gz')) {
 *   if (!r.ok) console.error(`${r.file}:${r.line}: ${r.reason}`);
 * }
 * ```
 * @public
 */
export async function* readRecords(
  file: string,
  options: ReadRecordsOptions = {},
): AsyncGenerator<FileRecord | MalformedRecord> {
  for await (const batch of readRecordBatches(file, options)) yield* batch;
}

/**
 * Reads a whole file of records into memory (offers, customers, history).
 * @param file - the path
 * @param options - as for {@link readRecords}
 * @returns the records' values and the malformed lines
 * @throws as {@link readRecords}
 * @public
 */
export async function readAllRecords(
  file: string,
  options: ReadRecordsOptions = {},
): Promise<{ readonly records: unknown[]; readonly malformed: MalformedRecord[] }> {
  const records: unknown[] = [];
  const malformed: MalformedRecord[] = [];
  for await (const r of readRecords(file, options)) {
    if (r.ok) records.push(r.value);
    else malformed.push(r);
  }
  return { records, malformed };
}
