// CSV records in batches, read with Papa Parse: a header row, then one record per row, nested at
// the dots of the column names. Papa Parse reads a million rows in about a quarter of the time
// csv-parse took with the line numbers on (docs/benchmarks.md, Figures behind choices in the
// code).
import { type Readable, Transform } from 'node:stream';
import Papa from 'papaparse';
import { type ColumnPaths, columnPaths, nestRow } from './nest.js';
import type { FileRecord, MalformedRecord } from './readRecords.js';

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

/** How many records may wait for the reader before the file is paused. */
const HIGH_WATER = 4096;

/**
 * The records of CSV text as batches, in file order: the first row names the columns, a row with
 * another number of cells or a broken quote is a {@link MalformedRecord} with its line, and
 * blank lines are skipped. Cells stay strings; an empty cell is left out. Lines may end in LF,
 * CRLF or both; a CRLF is read as LF, inside quoted cells too.
 * @param file - the file's name, for malformed records
 * @param bytes - its bytes, decompressed
 * @returns the batches
 */
export async function* csvBatches(
  file: string,
  bytes: Readable,
): AsyncGenerator<(FileRecord | MalformedRecord)[]> {
  const text = crlfAsLf(bytes);
  const lines = new LineCounter();
  // Registered before the parser's own listener: each piece is counted before it is parsed.
  text.on('data', (piece: string) => lines.add(piece));
  let ready: (FileRecord | MalformedRecord)[] = [];
  let finished = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let header: readonly string[] | undefined;
  let paths: ColumnPaths = [];
  let end = 0;
  Papa.parse<string[]>(text, {
    header: false,
    delimiter: ',',
    skipEmptyLines: true,
    step: (row) => {
      const line = lines.rowAfter(end);
      end = row.meta.cursor;
      const cells = row.data;
      const error = row.errors[0];
      if (header === undefined && error === undefined) {
        header = cells.map((name, i) => (i === 0 ? name.replace(/^\uFEFF/, '') : name));
        paths = columnPaths(header);
        return;
      }
      if (error !== undefined) {
        ready.push({ ok: false, file, line, reason: error.message });
      } else if (cells.length !== paths.length) {
        ready.push({
          ok: false,
          file,
          line,
          reason: `the row has ${cells.length} cells, the header names ${paths.length} columns`,
        });
      } else ready.push({ ok: true, value: nestRow(paths, (i) => cells[i]), line });
      if (ready.length >= HIGH_WATER) text.pause();
      notify();
    },
    complete: () => {
      finished = true;
      notify();
    },
    error: (err: Error) => {
      failure = err;
      notify();
    },
  });
  text.on('error', (err) => {
    failure = err;
    notify();
  });
  try {
    for (;;) {
      if (ready.length > 0) {
        const batch = ready;
        ready = [];
        text.resume();
        yield batch;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (finished) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    text.destroy();
    bytes.destroy();
  }
}
