import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { JSONParser } from '@streamparser/json';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { assertKnownKeys } from '../model/knownKeys.js';
import { csvBatches } from './csv.js';
import { columnPaths, nestRow } from './nest.js';

/** The record formats the readers know. @public */
export type FileFormat = 'json' | 'ndjson' | 'csv' | 'parquet';

/** A record read from a file. @public */
export interface FileRecord {
  /** Always `true`: the line was read. */
  readonly ok: true;
  /** The record: an object for CSV and Parquet rows, any JSON value otherwise. */
  readonly value: unknown;
  /** Its line (NDJSON, CSV: the line it starts on), item (JSON array) or row (Parquet), from 1. */
  readonly line: number;
}

/** A line or row that could not be read as a record. @public */
export interface MalformedRecord {
  /** Always `false`: the line could not be read. */
  readonly ok: false;
  /** The file, as given. */
  readonly file: string;
  /** The line (NDJSON, CSV), item (JSON array) or row (Parquet), from 1. */
  readonly line: number;
  /** Why it could not be read. */
  readonly reason: string;
}

/** A file that cannot be opened or read at all (missing, a directory, no permission). @public */
export class FileReadError extends Error {
  /** The file, as given. */
  readonly file: string;

  /**
   * @param file - the file
   * @param reason - why, in words
   */
  constructor(file: string, reason: string) {
    super(`cannot read ${file}: ${reason}`);
    this.name = 'FileReadError';
    this.file = file;
  }
}

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
}

const READ_OPTION_KEYS: readonly string[] = ['format', 'onBytes'];
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

/** Why a file could not be opened, in words, from a Node file-system error. */
function openFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return err instanceof Error ? err.message : String(err);
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
    throw new FileReadError(file, openFailure(err));
  }
}

/**
 * How many bytes of a file are read at a time: 16 KiB, the size of the pieces gunzip gives, not
 * the file stream's default of 64 KiB. A piece is decoded into one string, and one character
 * outside Latin-1 (5% of the bench's lines have one) makes the whole string two bytes a
 * character: 64 KiB of such text is a 128 KiB string, past V8's largest regular object, and the
 * lines sliced from it kept the young generation busy: a million NDJSON lines took 1.4 times as
 * long and 1.5 times the memory (docs/benchmarks.md, "Reading in 16 KiB pieces").
 */
const PIECE_BYTES = 16 * 1024;

/** The file's bytes as a stream, decompressed when `gzip`, reporting bytes read to `onBytes`. */
export function byteStream(
  file: string,
  gzip: boolean,
  onBytes?: (bytes: number) => void,
): Readable {
  const raw = createReadStream(file, { highWaterMark: PIECE_BYTES });
  if (onBytes !== undefined) {
    let bytes = 0;
    raw.on('data', (chunk) => {
      bytes += chunk.length;
      onBytes(bytes);
    });
  }
  if (!gzip) return raw;
  // pipeline, not pipe: a reader that stops early destroys the gunzip stream, and with it the file.
  const gunzip = createGunzip();
  pipeline(raw, gunzip, () => {});
  return gunzip;
}

/**
 * The non-blank lines of a text file with their line numbers, a batch per piece of the file read
 * (no promise per line: a million lines would spend more time awaiting than parsing).
 */
async function* lineBatches(
  file: string,
  gzip: boolean,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<{ text: string; line: number }[]> {
  const stream = byteStream(file, gzip, onBytes);
  stream.setEncoding('utf8');
  let rest = '';
  let line = 0;
  const batch = (text: string, last: boolean): { text: string; line: number }[] => {
    const out: { text: string; line: number }[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      line++;
      const l = text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl);
      if (l.trim() !== '') out.push({ text: l, line });
      start = nl + 1;
    }
    rest = text.slice(start);
    if (last && rest.trim() !== '') out.push({ text: rest, line: ++line });
    return out;
  };
  for await (const piece of stream as AsyncIterable<string>) {
    const lines = batch(rest + piece, false);
    if (lines.length > 0) yield lines;
  }
  const tail = batch(rest, true);
  if (tail.length > 0) yield tail;
}

/** NDJSON records in batches: what `replayFiles` reads, with no promise per line. */
async function* ndjsonBatches(
  file: string,
  gzip: boolean,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<(FileRecord | MalformedRecord)[]> {
  for await (const lines of lineBatches(file, gzip, onBytes)) {
    yield lines.map(({ text, line }): FileRecord | MalformedRecord => {
      try {
        return { ok: true, value: JSON.parse(text), line };
      } catch (err) {
        return { ok: false, file, line, reason: `not valid JSON: ${(err as Error).message}` };
      }
    });
  }
}

/**
 * The records of a file as batches (NDJSON, CSV, JSON: one per piece read; Parquet: up to 1000).
 * @param file - the path
 * @param options - as for {@link readRecords}
 * @returns the batches
 */
export async function* readRecordBatches(
  file: string,
  options: ReadRecordsOptions = {},
): AsyncGenerator<(FileRecord | MalformedRecord)[]> {
  const { format, gzip } = formatOf(file, options.format);
  if (format === 'ndjson') {
    await fileSize(file);
    try {
      yield* ndjsonBatches(file, gzip, options.onBytes);
    } catch (err) {
      if (err instanceof FileReadError) throw err;
      throw new FileReadError(file, err instanceof Error ? err.message : String(err));
    }
    return;
  }
  if (format === 'csv' || format === 'json') {
    await fileSize(file);
    const stream = byteStream(file, gzip, options.onBytes);
    try {
      yield* format === 'csv' ? csvBatches(file, stream) : jsonBatches(file, stream);
    } catch (err) {
      if (err instanceof FileReadError) throw err;
      throw new FileReadError(file, err instanceof Error ? err.message : String(err));
    }
    return;
  }
  let batch: (FileRecord | MalformedRecord)[] = [];
  for await (const r of readRecords(file, options)) {
    batch.push(r);
    if (batch.length === 1000) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function* ndjsonRecords(
  file: string,
  gzip: boolean,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<FileRecord | MalformedRecord> {
  for await (const batch of ndjsonBatches(file, gzip, onBytes)) yield* batch;
}

/**
 * The items of a JSON array in batches, one per piece of the file read: the array is parsed as
 * it streams (@streamparser/json), so memory holds a piece and the item being read, not the file.
 * The bytes are decoded as the other readers decode them (a byte that is not UTF-8 reads as
 * U+FFFD). A syntax error ends the file: there is no line to resume at, so it is a
 * {@link FileReadError} naming the last whole item (the items before it have been yielded).
 */
async function* jsonBatches(file: string, bytes: Readable): AsyncGenerator<FileRecord[]> {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  let batch: FileRecord[] = [];
  let items = 0;
  let failure: Error | undefined;
  parser.onValue = ({ value, key }) => {
    items = (key as number) + 1;
    batch.push({ ok: true, value, line: items });
  };
  parser.onError = (err) => {
    failure ??= err;
  };
  const invalid = (why: string): FileReadError =>
    new FileReadError(
      file,
      `not valid JSON ${items === 0 ? 'before its first item' : `after item ${items}`}: ${why}`,
    );
  bytes.setEncoding('utf8');
  // Until the first character of JSON, past a BOM and white space: it must be `[`.
  let first = true;
  let started = false;
  for await (const text of bytes as AsyncIterable<string>) {
    let piece = text;
    if (!started) {
      if (first && piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
      first = false;
      piece = piece.replace(/^[ \t\n\r]+/, '');
      if (piece === '') continue;
      if (piece[0] !== '[') throw new FileReadError(file, 'a JSON file must hold an array');
      started = true;
    }
    parser.write(piece);
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
    if (failure !== undefined) throw invalid(failure.message);
  }
  if (!started) throw new FileReadError(file, 'not valid JSON: the file holds no JSON value');
  if (!parser.isEnded) throw invalid('the file ends inside the array');
}

async function* parquetRecords(
  file: string,
  gzip: boolean,
  size: number,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<FileRecord | MalformedRecord> {
  if (gzip) throw new FileReadError(file, 'Parquet compresses its own pages: give it without .gz');
  let buffer: Awaited<ReturnType<typeof asyncBufferFromFile>>;
  let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>;
  try {
    buffer = await asyncBufferFromFile(file);
    metadata = await parquetMetadataAsync(buffer);
  } catch (err) {
    throw new FileReadError(file, `not a Parquet file: ${(err as Error).message}`);
  }
  let rowStart = 0;
  // One row group at a time: memory holds one group, not the file.
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd });
    const columns = Object.keys(rows[0] ?? {});
    const paths = columnPaths(columns);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as Record<string, unknown>;
      yield {
        ok: true,
        value: nestRow(paths, (c) => row[columns[c] as string]),
        line: rowStart + i + 1,
      };
    }
    rowStart = rowEnd;
    onBytes?.(Math.round((size * rowStart) / Math.max(1, Number(metadata.num_rows))));
  }
}

/**
 * Reads the records of a file one by one, in file order: a JSON array, NDJSON (one JSON value a
 * line; blank lines skipped), CSV (a header row; `merchant.name` columns make nested fields, empty
 * cells are left out, values stay strings) or Parquet (one row group in memory at a time), each
 * gzip-compressed or not but Parquet. A line or row that cannot be read comes as a
 * {@link MalformedRecord} and reading goes on. Every format streams: memory does not grow with
 * the file. A JSON array is one document, so a syntax error in it ends the file with a
 * `FileReadError` naming the last whole item, after the items before it.
 * @param file - the path
 * @param options - the format, when the name does not say it, and a byte counter
 * @returns the records and malformed lines, in file order
 * @throws FileReadError (when iterated) for a file that cannot be opened or read, a JSON file that
 *   is not a JSON array or not valid JSON, a file that is not Parquet; TypeError for an unknown
 *   format or option
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
  assertKnownKeys(options, READ_OPTION_KEYS, 'readRecords options');
  const { format, gzip } = formatOf(file, options.format);
  const size = await fileSize(file);
  try {
    if (format === 'ndjson') yield* ndjsonRecords(file, gzip, options.onBytes);
    else if (format === 'csv') {
      for await (const batch of csvBatches(file, byteStream(file, gzip, options.onBytes)))
        yield* batch;
    } else if (format === 'parquet') yield* parquetRecords(file, gzip, size, options.onBytes);
    else {
      for await (const batch of jsonBatches(file, byteStream(file, gzip, options.onBytes)))
        yield* batch;
    }
  } catch (err) {
    if (err instanceof FileReadError) throw err;
    throw new FileReadError(file, err instanceof Error ? err.message : String(err));
  }
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
