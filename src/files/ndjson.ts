// NDJSON records in batches, one batch per piece of the file read, with no promise per line: a
// million lines would spend more time awaiting than parsing. Lines are cut in the bytes, where a
// `\n` can never be part of a character, and each piece's whole lines are decoded at once.
import type { Readable } from 'node:stream';
import { longerThan } from './limits.js';
import { LineCarry, lineTooLong } from './lineCarry.js';
import type { FileRecord, MalformedRecord } from './records.js';

/** A line of text and its number. */
interface Line {
  readonly text: string;
  readonly line: number;
}

/**
 * The non-blank lines of a text, with their numbers, a batch per piece: a `\r` before the `\n` is
 * dropped, the last line is kept without a line break, and a line past `max` bytes ends the read.
 */
async function* lineBatches(file: string, bytes: Readable, max: number): AsyncGenerator<Line[]> {
  const carry = new LineCarry(file, max);
  let line = 0;
  const add = (out: Line[], text: string): void => {
    if (longerThan(text, max)) throw lineTooLong(file, line, max);
    if (text.trim() !== '') out.push({ text, line });
  };
  for await (const piece of bytes as AsyncIterable<Buffer>) {
    const first = piece.indexOf(0x0a);
    if (first === -1) {
      carry.add(piece, line + 1);
      continue;
    }
    const out: Line[] = [];
    // A line past the limit ends the read after the lines before it.
    let failure: unknown;
    try {
      line++;
      const head = carry.take(piece.subarray(0, first), line);
      const cr = head.length > 0 && head[head.length - 1] === 0x0d ? 1 : 0;
      add(out, head.toString('utf8', 0, head.length - cr));
      const last = piece.lastIndexOf(0x0a);
      if (last > first) {
        const text = piece.toString('utf8', first + 1, last + 1);
        let start = 0;
        for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
          line++;
          add(out, text.slice(start, text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl));
          start = nl + 1;
        }
      }
      carry.add(piece.subarray(last + 1), line + 1);
    } catch (err) {
      failure = err;
    }
    if (out.length > 0) yield out;
    if (failure !== undefined) throw failure;
  }
  if (!carry.empty) {
    line++;
    const out: Line[] = [];
    add(out, carry.take(Buffer.alloc(0), line).toString('utf8'));
    if (out.length > 0) yield out;
  }
}

/**
 * The records of NDJSON text as batches, one per piece read: one JSON value a line, blank lines
 * skipped; a line that is not JSON is a {@link MalformedRecord}.
 * @param file - the file's name, for malformed records and errors
 * @param bytes - its bytes, decompressed
 * @param maxLineBytes - the longest line
 * @returns the batches
 * @throws ReadLimitError (when iterated) for a line past `maxLineBytes`
 */
export async function* ndjsonBatches(
  file: string,
  bytes: Readable,
  maxLineBytes: number,
): AsyncGenerator<(FileRecord | MalformedRecord)[]> {
  try {
    for await (const lines of lineBatches(file, bytes, maxLineBytes)) {
      yield lines.map(({ text, line }): FileRecord | MalformedRecord => {
        try {
          return { ok: true, value: JSON.parse(text), line };
        } catch (err) {
          return { ok: false, file, line, reason: `not valid JSON: ${(err as Error).message}` };
        }
      });
    }
  } finally {
    bytes.destroy();
  }
}
