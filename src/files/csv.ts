// CSV records in batches, read with Papa Parse: a header row, then one record per row, nested at
// the dots of the column names. Papa Parse reads a million rows in about a quarter of the time
// csv-parse took with the line numbers on (docs/benchmarks.md, Figures behind choices in the
// code).
import { type Readable, Transform } from 'node:stream';
import Papa from 'papaparse';
import { longerThan, type ReadLimitError, type ReadLimits, tooLongError } from './limits.js';
import { lineTooLong } from './lineCarry.js';
import { type ColumnPaths, columnPaths, nestRow } from './nest.js';
import type { FileRecord, MalformedRecord } from './records.js';

/**
 * The line numbers of positions in a text that arrives piece by piece, asked in increasing order.
 * Only the pieces not yet counted are kept.
 */
class LineCounter {
  private readonly pieces: string[] = [];
  /** The position of `pieces[0]` in the text. */
  private first = 0;
  /** The position counted up to, and its line. */
  private at = 0;
  private line = 1;

  add(piece: string): void {
    this.pieces.push(piece);
  }

  /** The piece holding position `at`, and `at` within it; undefined past the text read. */
  private current(): { piece: string; local: number } | undefined {
    for (;;) {
      const piece = this.pieces[0];
      if (piece === undefined) return undefined;
      const local = this.at - this.first;
      if (local < piece.length) return { piece, local };
      this.first += piece.length;
      this.pieces.shift();
    }
  }

  /**
   * The line on which a row starts whose text follows `end` (where the row before it ended,
   * after its line break): blank lines in between are passed over, as the parser skips them.
   */
  rowAfter(end: number): number {
    while (this.at < end) {
      const here = this.current();
      if (here === undefined) break;
      const stop = Math.min(here.piece.length, end - this.first);
      for (let nl = here.piece.indexOf('\n', here.local); nl !== -1 && nl < stop; ) {
        this.line++;
        nl = here.piece.indexOf('\n', nl + 1);
      }
      this.at = this.first + stop;
    }
    for (let here = this.current(); here !== undefined; here = this.current()) {
      const c = here.piece.charCodeAt(here.local);
      if (c !== 10 && c !== 13) break;
      if (c === 10) this.line++;
      this.at++;
    }
    return this.line;
  }
}

/**
 * The text with every CRLF read as LF. Papa Parse takes the line break it finds first for the
 * whole file, so a file whose lines end in both (two exports joined) would otherwise merge rows or
 * keep a CR in the last cell. A CR that ends a piece waits for the next piece. A lone CR is kept:
 * a file whose lines all end in CR is still read. The cost is in docs/benchmarks.md (Figures
 * behind choices in the code).
 */
function crlfAsLf(text: Readable): Readable {
  text.setEncoding('utf8');
  let held = '';
  const out = new Transform({
    decodeStrings: false,
    encoding: 'utf8',
    transform(piece: string, _encoding, done) {
      let s = held + piece;
      held = '';
      if (s.endsWith('\r')) {
        held = '\r';
        s = s.slice(0, -1);
      }
      done(null, s.includes('\r\n') ? s.replaceAll('\r\n', '\n') : s);
    },
    flush(done) {
      done(null, held);
    },
  });
  text.on('error', (err) => out.destroy(err));
  return text.pipe(out);
}

/** Papa Parse's parser of one text in pieces, as its own stream readers drive it. */
interface ParserHandle {
  /** Parses `input`, which starts at `baseIndex` of the whole text; holds back its last row when `ignoreLastRow`. */
  parse(input: string, baseIndex: number, ignoreLastRow: boolean): { meta: { cursor: number } };
}
type ParserHandleClass = new (config: Papa.ParseConfig<string[]>) => ParserHandle;
// Not in Papa Parse's types, but what its stream reader drives: the same parser, fed by the loop
// below (Papa Parse 5.7).
const { ParserHandle } = Papa as unknown as { ParserHandle: ParserHandleClass };

/** V8's shortest substring that refers to its parent string instead of holding a copy. */
const SLICED_MIN_LENGTH = 13;

/**
 * A cell as a string of its own. Papa Parse cuts cells out of the text it parses, and V8 makes a
 * cut of 13 characters or more (a date, a merchant name) a view that keeps the whole text alive:
 * the text of every piece then lived as long as its records and was promoted with them, which
 * made the peak of a CSV replay half as large again as NDJSON's (docs/benchmarks.md, "Memory of
 * the readers").
 */
function ownCopy(cell: string | undefined): string | undefined {
  if (cell === undefined || cell.length < SLICED_MIN_LENGTH) return cell;
  // The join makes a flat copy of the cell; the slice then refers to that copy only.
  return ` ${cell}`.slice(1);
}

/** The records of CSV rows, the first whole row naming the columns. */
class CsvRecords {
  private paths: ColumnPaths | undefined;

  /** @param file - the file, for malformed records */
  constructor(private readonly file: string) {}

  /**
   * The record of a row: undefined for the header, malformed for a broken quote or a row with
   * another number of cells than the header has columns.
   */
  of(
    cells: string[],
    error: string | undefined,
    line: number,
  ): FileRecord | MalformedRecord | undefined {
    const { file, paths } = this;
    if (paths === undefined && error === undefined) {
      this.paths = columnPaths(
        cells.map((name, i) => (i === 0 ? name.replace(/^\uFEFF/, '') : name)),
      );
      return undefined;
    }
    if (error !== undefined) return { ok: false, file, line, reason: error };
    const columns = paths?.length ?? 0;
    if (cells.length !== columns) {
      const reason = `the row has ${cells.length} cells, the header names ${columns} columns`;
      return { ok: false, file, line, reason };
    }
    return { ok: true, value: nestRow(paths ?? [], (i) => ownCopy(cells[i])), line };
  }
}

/** The error for a field past the field limit. */
function fieldTooLong(file: string, line: number, max: number): ReadLimitError {
  return tooLongError(file, line, 'maxFieldBytes', max, 'a field');
}

/**
 * The records of CSV text as batches, in file order: the first row names the columns, a row with
 * another number of cells or a broken quote is a {@link MalformedRecord} with its line, and
 * blank lines are skipped. Cells stay strings; an empty cell is left out. Lines may end in LF,
 * CRLF or both; a CRLF is read as LF, inside quoted cells too.
 *
 * Papa Parse parses the row that a piece leaves unfinished again with the next piece; here the
 * next text waits until it is as long as that row, so that a long row costs its length, not its
 * square, and a row or field past its limit ends the read once at most twice the limit is held.
 * @param file - the file's name, for malformed records and errors
 * @param bytes - its bytes, decompressed
 * @param limits - `maxLineBytes`, the longest row, and `maxFieldBytes`, the longest field
 * @returns the batches
 * @throws ReadLimitError (when iterated) for a row or field past its limit
 */
export async function* csvBatches(
  file: string,
  bytes: Readable,
  limits: Required<Pick<ReadLimits, 'maxLineBytes' | 'maxFieldBytes'>>,
): AsyncGenerator<(FileRecord | MalformedRecord)[]> {
  const { maxLineBytes, maxFieldBytes } = limits;
  const text = crlfAsLf(bytes);
  const lines = new LineCounter();
  const records = new CsvRecords(file);
  let ready: (FileRecord | MalformedRecord)[] = [];
  let end = 0;
  const config: Papa.ParseConfig<string[]> = {
    header: false,
    delimiter: ',',
    skipEmptyLines: true,
    step: (row) => {
      const line = lines.rowAfter(end);
      const start = end;
      end = row.meta.cursor;
      const cells = row.data;
      if (cells.some((cell) => longerThan(cell, maxFieldBytes))) {
        throw fieldTooLong(file, line, maxFieldBytes);
      }
      // The row's text, its line break left out, when its length may be past the limit.
      if ((end - start) * 3 > maxLineBytes) {
        const text = input.substring(start - base, end - base).replace(/\r?\n?$/, '');
        if (longerThan(text, maxLineBytes)) throw lineTooLong(file, line, maxLineBytes);
      }
      const record = records.of(cells, row.errors[0]?.message, line);
      if (record !== undefined) ready.push(record);
    },
  };
  const parser = new ParserHandle(config);
  /** The text after the last whole row, its position in the text, and the text read since. */
  let partial = '';
  let base = 0;
  let pending: string[] = [];
  let waiting = 0;
  /** The text being parsed. */
  let input = '';
  const parse = (last: boolean): void => {
    input = partial + pending.join('');
    pending = [];
    waiting = 0;
    const cursor = parser.parse(input, base, !last).meta.cursor;
    if (last) return;
    partial = input.substring(cursor - base);
    base = cursor;
  };
  /** Throws when the unfinished row, or its field being read, is past its limit. */
  const bound = (): void => {
    if (!longerThan(partial, Math.min(maxLineBytes, maxFieldBytes))) return;
    const cells = Papa.parse<string[]>(partial, { delimiter: ',', newline: config.newline }).data;
    if (cells[0]?.some((cell) => longerThan(cell, maxFieldBytes)) === true) {
      throw fieldTooLong(file, lines.rowAfter(end), maxFieldBytes);
    }
    if (longerThan(partial, maxLineBytes))
      throw lineTooLong(file, lines.rowAfter(end), maxLineBytes);
  };
  /** Parses the text read so far; a row past a limit ends the read after the rows before it. */
  async function* rows(last: boolean): AsyncGenerator<(FileRecord | MalformedRecord)[]> {
    let failure: unknown;
    try {
      parse(false);
      bound();
      if (last) parse(true);
    } catch (err) {
      failure = err;
    }
    if (ready.length > 0) {
      const batch = ready;
      ready = [];
      yield batch;
    }
    if (failure !== undefined) throw failure;
  }
  try {
    for await (const piece of text as AsyncIterable<string>) {
      lines.add(piece);
      pending.push(piece);
      waiting += piece.length;
      if (waiting >= partial.length) yield* rows(false);
    }
    yield* rows(true);
  } finally {
    text.destroy();
    bytes.destroy();
  }
}
