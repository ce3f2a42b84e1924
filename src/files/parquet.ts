// Parquet rows as records, one row group in memory at a time: memory holds one group, not the file.
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { columnPaths, nestRow } from './nest.js';
import { FileReadError, type FileRecord } from './records.js';

/**
 * Rows a batch: about as many as a piece of NDJSON or CSV holds. A replay decides a batch as one
 * chunk, and batches of 1000 kept enough items alive across young collections to be promoted
 * (docs/benchmarks.md, "Memory of the readers").
 */
const BATCH = 100;

/**
 * The rows of a Parquet file as records in batches of up to 100, each row's line its number.
 * @param file - the path
 * @param gzip - whether the name ends in `.gz` (refused: Parquet compresses its own pages)
 * @param size - the file's size, for `onBytes`
 * @param onBytes - called after each row group with the share of the file read, in bytes
 * @returns the batches
 * @throws FileReadError (when iterated) for a file that is not Parquet or is named `.gz`
 */
export async function* parquetBatches(
  file: string,
  gzip: boolean,
  size: number,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<FileRecord[]> {
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
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd });
    const columns = Object.keys(rows[0] ?? {});
    const paths = columnPaths(columns);
    for (let from = 0; from < rows.length; from += BATCH) {
      const batch: FileRecord[] = [];
      for (let i = from; i < Math.min(rows.length, from + BATCH); i++) {
        const row = rows[i] as Record<string, unknown>;
        const value = nestRow(paths, (c) => row[columns[c] as string]);
        batch.push({ ok: true, value, line: rowStart + i + 1 });
      }
      yield batch;
    }
    rowStart = rowEnd;
    onBytes?.(Math.round((size * rowStart) / Math.max(1, Number(metadata.num_rows))));
  }
}
