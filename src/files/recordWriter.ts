/**
 * A column of the records a writer writes. CSV and NDJSON write every value as it is; a Parquet
 * file types the column (docs/replay.md, "Parquet output"): `text` a UTF-8 string, `integer` a
 * 64-bit integer, `decimal` a DECIMAL(18, `scale`) from a number or a decimal string, `date` a
 * DATE from `YYYY-MM-DD`.
 */
export interface RecordColumn {
  readonly name: string;
  readonly type: 'text' | 'integer' | 'decimal' | 'date';
  /** Digits after the point of a `decimal` column. */
  readonly scale?: number;
}

/** Writes flat records to a CSV, NDJSON or Parquet file (by its name). */
export interface RecordWriter {
  /** Writes one record (buffered). */
  write(record: object): void;
  /** Resolves when the file can take more (at once unless its buffer is full). */
  drained(): Promise<void>;
  /** Flushes and closes the file. */
  close(): Promise<void>;
}
