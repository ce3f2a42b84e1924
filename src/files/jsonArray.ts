// The items of a JSON array in batches, one per piece of the file read: the array is parsed as it
// streams (@streamparser/json), so memory holds a piece and the item being read, not the file.
// The tokens are watched on their way to the parser: an item past the value limit or arrays and
// objects nested past the depth limit end the read at once, before the parser keeps them.
import type { Readable } from 'node:stream';
import { JSONParser, TokenType } from '@streamparser/json';
import { ReadLimitError, type ReadLimits, tooLongError } from './limits.js';
import { FileReadError, type FileRecord } from './records.js';

/** The line of each byte offset of a text written piece by piece, asked in increasing order. */
class LineOfOffset {
  private piece: Buffer = Buffer.alloc(0);
  /** The offset of `piece` in the text, and the offset and line counted up to. */
  private start = 0;
  private at = 0;
  private line = 1;

  /** Takes the next piece; offsets before it are no longer asked. */
  next(piece: Buffer): void {
    this.lineOf(this.start + this.piece.length);
    this.start += this.piece.length;
    this.piece = piece;
  }

  /** The line of `offset`, at or after the last one asked. */
  lineOf(offset: number): number {
    const end = Math.min(offset, this.start + this.piece.length) - this.start;
    for (let nl = this.piece.indexOf(0x0a, this.at - this.start); nl !== -1 && nl < end; ) {
      this.line++;
      nl = this.piece.indexOf(0x0a, nl + 1);
    }
    this.at = Math.max(this.at, this.start + end);
    return this.line;
  }
}

/**
 * The items of a JSON array as batches. The bytes are decoded as the other readers decode them (a
 * byte that is not UTF-8 reads as U+FFFD). A syntax error ends the file: there is no line to
 * resume at, so it is a {@link FileReadError} naming the last whole item (the items before it have
 * been yielded).
 * @param file - the file's name, for errors
 * @param bytes - its bytes, decompressed
 * @param limits - `maxValueBytes`, the longest item, and `maxDepth`, the deepest nesting
 * @returns the batches
 * @throws FileReadError (when iterated) for a file that is not a JSON array; ReadLimitError for an
 *   item past a limit
 */
export async function* jsonBatches(
  file: string,
  bytes: Readable,
  limits: Required<Pick<ReadLimits, 'maxValueBytes' | 'maxDepth'>>,
): AsyncGenerator<FileRecord[]> {
  const { maxValueBytes, maxDepth } = limits;
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  const lines = new LineOfOffset();
  let batch: FileRecord[] = [];
  let items = 0;
  let failure: Error | undefined;
  let depth = 0;
  // The item being read (from 1), where it may start (past the `[` or `,` before it), and its
  // line once its first token is seen.
  let item = 1;
  let floor = 0;
  let startLine: number | undefined;
  const over = (limit: 'maxValueBytes' | 'maxDepth', line: number): ReadLimitError =>
    limit === 'maxDepth'
      ? new ReadLimitError(
          file,
          line,
          limit,
          maxDepth,
          `item ${item} nests deeper than ${maxDepth} levels`,
        )
      : tooLongError(file, line, limit, maxValueBytes, `item ${item}`);
  parser.onToken = ({ token, offset }) => {
    // Checked at every token, the one that ends an item (`,` or `]`) included: a string or number
    // item is one token, known only when it ends.
    if (depth > 0 && offset - floor > maxValueBytes) {
      throw over('maxValueBytes', startLine ?? lines.lineOf(floor));
    }
    if (depth === 1 && token !== TokenType.RIGHT_BRACKET && token !== TokenType.COMMA) {
      startLine ??= lines.lineOf(offset);
    }
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      if (++depth > maxDepth) throw over('maxDepth', lines.lineOf(offset));
      if (depth === 1) floor = offset + 1;
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) depth--;
    else if (token === TokenType.COMMA && depth === 1) {
      item++;
      floor = offset + 1;
      startLine = undefined;
    }
  };
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
  // The first character of JSON, past a BOM and white space, must be `[`.
  let first = true;
  let started = false;
  let written = 0;
  for await (const text of bytes as AsyncIterable<string>) {
    let piece = text;
    if (first && piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
    first = false;
    if (!started) {
      const at = piece.search(/[^ \t\n\r]/);
      if (at !== -1 && piece[at] !== '[') {
        throw new FileReadError(file, 'a JSON file must hold an array');
      }
      started = at !== -1;
    }
    const encoded = Buffer.from(piece, 'utf8');
    lines.next(encoded);
    parser.write(encoded);
    written += encoded.length;
    // An item that is still being read past the end of the piece.
    if (failure === undefined && depth > 0 && written - floor > maxValueBytes) {
      failure = over('maxValueBytes', startLine ?? lines.lineOf(floor));
    }
    // A string or number item past the limit was parsed before the token after it told: left out.
    if (failure instanceof ReadLimitError) batch = batch.filter((r) => r.line < item);
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
    if (failure !== undefined) {
      throw failure instanceof ReadLimitError ? failure : invalid(failure.message);
    }
  }
  if (!started) throw new FileReadError(file, 'not valid JSON: the file holds no JSON value');
  if (!parser.isEnded) throw invalid('the file ends inside the array');
}
