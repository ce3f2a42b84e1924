// Parquet rows as records, one row group in memory at a time, decoded a column at a time: memory
// holds one group's values, not the file, nor a group's row objects.
import {
  type AsyncBuffer,
  asyncBufferFromFile,
  type FileMetaData,
  parquetMetadataAsync,
  parquetRead,
  parquetSchema,
} from 'hyparquet';
import { columnPaths, nestRow } from './nest.js';
import { FileReadError, type FileRecord } from './records.js';

/**
 * Rows a batch: about as many as a piece of NDJSON or CSV holds. A replay decides a batch as one
 * chunk, and batches of 1000 kept enough items alive across young collections to be promoted
 * (docs/benchmarks.md, "Memory of the readers").
 */
const BATCH = 100;

/**
 * One top-level column of the rows `[rowStart, rowEnd)` of a row group, decoded alone: the
 * decoder's garbage of one column is collectable before the next is decoded, where decoding every
 * column into row objects at once held a whole group's (docs/benchmarks.md, "Parquet a column at
 * a time").
 */
async function groupColumn(
  file: AsyncBuffer,
  metadata: FileMetaData,
  name: string,
  rowStart: number,
  rowEnd: number,
): Promise<ArrayLike<unknown>> {
  const pieces: ArrayLike<unknown>[] = [];
  await parquetRead({
    file,
    metadata,
    rowStart,
    rowEnd,
    columns: [name],
    onChunk: (chunk) => pieces.push(chunk.columnData),
  });
  if (pieces.length === 1) return pieces[0] as ArrayLike<unknown>;
  const values: unknown[] = [];
  for (const piece of pieces) for (let i = 0; i < piece.length; i++) values.push(piece[i]);
  return values;
}

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
  let buffer: AsyncBuffer;
  let metadata: FileMetaData;
  try {
    buffer = await asyncBufferFromFile(file);
    metadata = await parquetMetadataAsync(buffer);
  } catch (err) {
    throw new FileReadError(file, `not a Parquet file: ${(err as Error).message}`);
  }
  const names = parquetSchema(metadata).children.map((c) => c.element.name);
  const paths = columnPaths(names);
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const columns: ArrayLike<unknown>[] = [];
    for (const name of names)
      columns.push(await groupColumn(buffer, metadata, name, rowStart, rowEnd));
    const rows = rowEnd - rowStart;
    for (let from = 0; from < rows; from += BATCH) {
      const batch: FileRecord[] = [];
      for (let i = from; i < Math.min(rows, from + BATCH); i++) {
        const value = nestRow(paths, (c) => (columns[c] as ArrayLike<unknown>)[i]);
        batch.push({ ok: true, value, line: rowStart + i + 1 });
      }
      yield batch;
    }
    rowStart = rowEnd;
    onBytes?.(Math.round((size * rowStart) / Math.max(1, Number(metadata.num_rows))));
  }
}
