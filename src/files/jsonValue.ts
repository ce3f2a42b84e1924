// One JSON value of a file, bounded as an item of a JSON array is: the transaction `cashback
// explain` takes. The file goes through the array reader as the only item of an array, so the
// value and depth limits keep one owner (docs/replay.md, Limits).
import { Readable } from 'node:stream';
import { byteStream } from './byteStream.js';
import { jsonBatches } from './jsonArray.js';
import { ReadLimitError, type ReadLimits, resolveReadLimits } from './limits.js';
import { fileSize, formatOf } from './readRecords.js';
import { FileReadError } from './records.js';

/** The file's bytes between `[` and `]`, a leading byte-order mark left out. */
async function* asOnlyItem(bytes: Readable): AsyncGenerator<Buffer> {
  yield Buffer.from('[');
  let first = true;
  for await (const piece of bytes as AsyncIterable<Buffer>) {
    const bom = first && piece[0] === 0xef && piece[1] === 0xbb && piece[2] === 0xbf;
    first = false;
    yield bom ? piece.subarray(3) : piece;
  }
  yield Buffer.from(']');
}

/**
 * Reads the one JSON value of a file, gzip-compressed when its name ends in `.gz`. It is read as
 * the only item of a JSON array: at most `maxValueBytes` long, nested at most `maxDepth - 1`
 * deep.
 * @param file - the path
 * @param limits - the limits; only `maxValueBytes` and `maxDepth` apply
 * @returns the value
 * @throws FileReadError for a file that cannot be read, is not valid JSON or holds no value or
 *   several; ReadLimitError (a FileReadError) past a limit; TypeError, RangeError for a bad limit
 */
export async function readJsonValue(file: string, limits?: ReadLimits): Promise<unknown> {
  const resolved = resolveReadLimits(limits);
  const { gzip } = formatOf(file, 'json');
  await fileSize(file);
  const bytes = byteStream(file, gzip);
  const values: unknown[] = [];
  try {
    const items = Readable.from(asOnlyItem(bytes), { objectMode: false });
    for await (const batch of jsonBatches(file, items, resolved)) {
      for (const r of batch) values.push(r.value);
    }
  } catch (err) {
    if (err instanceof ReadLimitError) throw err;
    // The array reader's own words would speak of the array around the value.
    if (err instanceof FileReadError) throw new FileReadError(file, 'not valid JSON');
    throw new FileReadError(file, err instanceof Error ? err.message : String(err));
  } finally {
    bytes.destroy();
  }
  if (values.length !== 1) {
    const why = values.length === 0 ? 'the file holds no JSON value' : 'it holds several values';
    throw new FileReadError(file, `not valid JSON: ${why}`);
  }
  return values[0];
}
