// The transactions file of `cashback replay --workers N` cut into blocks, each item routed to the
// partition that decides it (Routes.ts). NDJSON stays bytes in the reading thread: lines are
// found, routed and copied into one buffer per partition, which moves to a worker thread without
// a copy and is decoded and parsed there (docs/replay.md, Workers).
import { byteStream } from '../byteStream.js';
import { type ReadLimits, resolveReadLimits } from '../limits.js';
import { LineCarry, lineTooLong } from '../lineCarry.js';
import { FileReadError, type FileRecord, type MalformedRecord } from '../records.js';
import type { Routes } from './Routes.js';
import type { LineRoute } from './routeByCustomer.js';

/** One partition's items of a block: NDJSON lines as UTF-8, each ending in `\n`, or records. */
export type Part = { readonly text: Uint8Array } | { readonly records: unknown[] };

/** Consecutive items of the transactions file, in file order. */
export interface Block {
  /** How many items. */
  readonly count: number;
  /** The partition of each item. */
  readonly route: Uint8Array;
  /** The line (NDJSON, CSV), item (JSON array) or row (Parquet) of each item, from 1. */
  readonly lines: Int32Array;
  /** Each partition's items, in file order. */
  readonly parts: readonly Part[];
}

/** Gathers routed items until a block is full. */
class BlockBuilder {
  private count = 0;
  private route: Uint8Array;
  private lines: Int32Array;
  private texts: Uint8Array[];
  private used: number[];
  private records: unknown[][];

  constructor(
    private readonly kind: 'text' | 'records',
    private readonly routes: Routes,
    private readonly size: number,
  ) {
    const { partitions } = routes;
    this.route = new Uint8Array(size);
    this.lines = new Int32Array(size);
    this.texts = Array.from(
      { length: partitions },
      () => new Uint8Array(kind === 'text' ? 1 << 16 : 0),
    );
    this.used = new Array<number>(partitions).fill(0);
    this.records = Array.from({ length: partitions }, () => []);
  }

  get full(): boolean {
    return this.count === this.size;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  /** Adds an NDJSON line: `bytes` from `start` to `end`, routed by `router` (over `bytes`). */
  addLine(bytes: Buffer, start: number, end: number, line: number, router: LineRoute): void {
    const p = router.route(start, end);
    const used = this.used[p] as number;
    let text = this.texts[p] as Uint8Array;
    const need = used + end - start + 1;
    if (need > text.length) {
      const grown = new Uint8Array(Math.max(need, text.length * 2));
      grown.set(text.subarray(0, used));
      text = grown;
      this.texts[p] = grown;
    }
    bytes.copy(text, used, start, end);
    text[need - 1] = 0x0a;
    this.used[p] = need;
    this.push(p, line);
  }

  /** Adds a record. */
  addRecord(value: unknown, line: number): void {
    const p = this.routes.ofRecord(value);
    this.records[p]?.push(value);
    this.push(p, line);
  }

  private push(p: number, line: number): void {
    this.route[this.count] = p;
    this.lines[this.count] = line;
    this.count++;
  }

  /** The block so far; the builder starts a new one. */
  take(): Block {
    const parts: Part[] =
      this.kind === 'records'
        ? this.records.map((records) => ({ records }))
        : this.texts.map((text, p) => ({ text: text.subarray(0, this.used[p]) }));
    const block: Block = {
      count: this.count,
      route: this.route.subarray(0, this.count),
      lines: this.lines.subarray(0, this.count),
      parts,
    };
    this.count = 0;
    this.route = new Uint8Array(this.size);
    this.lines = new Int32Array(this.size);
    // The texts go with the block (to a worker thread, without a copy); the next starts as large.
    if (this.kind === 'text') this.texts = this.texts.map((text) => new Uint8Array(text.length));
    this.used.fill(0);
    this.records = this.records.map(() => []);
    return block;
  }
}

/**
 * An NDJSON file in blocks of `size` lines. Lines are cut and numbered as `readRecords` cuts them
 * (a `\r` before the `\n` dropped, the last line kept without a line break), and bounded as it
 * bounds them; empty lines are left out here, and lines of white space only by the partition
 * that decodes them.
 * @param file - the path
 * @param gzip - whether it is gzip-compressed
 * @param routes - where each line goes
 * @param size - items a block
 * @param onBytes - called with the bytes read so far
 * @param limits - `maxLineBytes`, the longest line
 * @returns the blocks
 * @throws FileReadError (when iterated) for a file that cannot be read; ReadLimitError for a line
 *   past the limit
 */
export async function* lineBlocks(
  file: string,
  gzip: boolean,
  routes: Routes,
  size: number,
  onBytes?: (bytes: number) => void,
  limits: Pick<ReadLimits, 'maxLineBytes'> = {},
): AsyncGenerator<Block> {
  const max = resolveReadLimits(limits).maxLineBytes;
  const builder = new BlockBuilder('text', routes, size);
  const full: Block[] = [];
  let line = 0;
  /** Adds the line of `bytes` from `start` to `end` (its `\n`, if any, excluded). */
  const add = (bytes: Buffer, start: number, nl: number, router: LineRoute): void => {
    const end = nl > start && bytes[nl - 1] === 0x0d ? nl - 1 : nl;
    if (end - start > max) throw lineTooLong(file, line, max);
    if (end > start) builder.addLine(bytes, start, end, line, router);
    if (builder.full) full.push(builder.take());
  };
  // The start of a line that goes on in the next pieces (joined only when it ends there).
  const carry = new LineCarry(file, max);
  try {
    for await (const piece of byteStream(file, gzip, onBytes) as AsyncIterable<Buffer>) {
      let start = 0;
      let nl = piece.indexOf(0x0a);
      if (nl === -1) {
        carry.add(piece, line + 1);
        continue;
      }
      if (!carry.empty) {
        line++;
        const joined = carry.take(piece.subarray(0, nl), line);
        add(joined, 0, joined.length, routes.lines(joined));
        start = nl + 1;
        nl = piece.indexOf(0x0a, start);
      }
      const router = routes.lines(piece);
      for (; nl !== -1; nl = piece.indexOf(0x0a, start)) {
        line++;
        add(piece, start, nl, router);
        start = nl + 1;
      }
      carry.add(piece.subarray(start), line + 1);
      yield* full.splice(0);
    }
  } catch (err) {
    if (err instanceof FileReadError) throw err;
    throw new FileReadError(file, err instanceof Error ? err.message : String(err));
  }
  if (!carry.empty) {
    line++;
    const rest = carry.take(Buffer.alloc(0), line);
    builder.addLine(rest, 0, rest.length, line, routes.lines(rest));
  }
  yield* full.splice(0);
  if (!builder.empty) yield builder.take();
}

/**
 * Records (JSON, CSV, Parquet) in blocks of `size`; malformed ones go to `skip`, in file order.
 * @param batches - the records as `readRecordBatches` reads them
 * @param routes - where each record goes
 * @param size - items a block
 * @param skip - takes a malformed record
 * @returns the blocks
 */
export async function* recordBlocks(
  batches: AsyncIterable<readonly (FileRecord | MalformedRecord)[]>,
  routes: Routes,
  size: number,
  skip: (record: MalformedRecord) => void,
): AsyncGenerator<Block> {
  const builder = new BlockBuilder('records', routes, size);
  for await (const batch of batches) {
    for (const r of batch) {
      if (!r.ok) skip(r);
      else builder.addRecord(r.value, r.line);
      if (builder.full) yield builder.take();
    }
  }
  if (!builder.empty) yield builder.take();
}
