// What every reader gives and throws: a record, a malformed line, a file that cannot be read. A
// module of its own, so that the readers of each format and `readRecords` all import it and none
// imports another (docs/architecture.md: no import circle).

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
