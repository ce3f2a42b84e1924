// The bytes of a file as every reader takes them: in 16 KiB pieces, gunzipped when the name ends
// in `.gz`, with a byte counter for progress.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * How many bytes of a file are read at a time: 16 KiB, the size of the pieces gunzip gives, not
 * the file stream's default of 64 KiB. A piece is decoded into one string, and one character
 * outside Latin-1 (5% of the bench's lines have one) makes the whole string two bytes a
 * character: 64 KiB of such text is a 128 KiB string, past V8's largest regular object, and the
 * lines sliced from it kept the young generation busy: a million NDJSON lines took 1.4 times as
 * long and 1.5 times the memory (docs/benchmarks.md, "Reading in 16 KiB pieces").
 */
const PIECE_BYTES = 16 * 1024;

/**
 * The file's bytes as a stream, decompressed when `gzip`, reporting bytes read to `onBytes`.
 * @param file - the path
 * @param gzip - whether it is gzip-compressed
 * @param onBytes - called with the bytes of the file read so far (before decompression)
 * @returns the stream of pieces
 */
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
