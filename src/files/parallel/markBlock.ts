// A block of `cashback replay --workers N` walked in file order between its two steps: the
// partitions classified their items; the replay's screener, over every partition, now says which
// are duplicates and whether one comes too late, as one replay says (docs/replay.md, Workers).

import type { Outcome } from '../../core/outcome.js';
import { duplicateOutcome } from '../../core/replay/duplicateOutcome.js';
import type { Screener } from '../../core/replay/Screener.js';
import { ITEM, MARK } from '../../core/screening.js';
import { isBefore, type WallClock } from '../../model/dateTime.js';
import type { Block } from './blocks.js';
import type { DecidedPart } from './Partition.js';
import { LINE, type Screening } from './PartitionReplay.js';
import type { OutcomeSource } from './wireOutcomes.js';

/** What becomes of each line of a block, and what each partition needs to decide its part. */
export interface BlockMarks {
  /** Per line: `SKIPPED` (blank or malformed), `DUPLICATE` or `DECIDED` by its partition. */
  readonly kinds: Uint8Array;
  /** Per line: its transaction id, or `null` when it has none. */
  readonly ids: (string | null)[];
  /** Per partition: positions in its part of the duplicates, ascending. */
  readonly duplicates: Int32Array[];
  /** Per partition: stream indices of its invalid items. */
  readonly indices: Int32Array[];
  /** The latest date-time of the block's valid items, when it has any (a replay's `asOf`). */
  readonly latest?: WallClock;
}

const SKIPPED = 0;
const DUPLICATE = 1;
const DECIDED = 2;

/** The items of a block in file order, as the screener reads them, and where each came from. */
interface Gathered {
  readonly kinds: Uint8Array;
  readonly ids: string[];
  readonly days: number[];
  /** Per item, its line in the block and its position in its partition's part. */
  readonly lineOf: Int32Array;
  readonly positionOf: Int32Array;
  readonly count: number;
}

/**
 * Walks a screened block in file order: reports malformed lines, numbers the items, then has
 * the screener screen them (it marks duplicates, stores ids and checks date order).
 * @param block - the block
 * @param screened - each partition's screening of its part
 * @param screener - the replay's screener, over every partition
 * @param next - the stream index of the next item, moved on past this block's
 * @param skip - reports a malformed line: its line number and why
 * @returns the marks
 * @throws LateTransactionError as one replay throws it
 */
export function markBlock(
  block: Block,
  screened: readonly Screening[],
  screener: Screener,
  next: { index: number },
  skip: (line: number, reason: string) => void,
): BlockMarks {
  const kinds = new Uint8Array(block.count);
  const ids = new Array<string | null>(block.count).fill(null);
  const indices = screened.map(() => [] as number[]);
  const items = gather(block, screened, skip);
  for (let j = 0; j < items.count; j++) {
    const i = items.lineOf[j] as number;
    const index = next.index++;
    kinds[i] = DECIDED;
    if (items.kinds[j] === ITEM.invalid) indices[block.route[i] as number]?.push(index);
  }
  let id = 0;
  for (let j = 0; j < items.count; j++) {
    if (items.kinds[j] !== ITEM.invalid) ids[items.lineOf[j] as number] = items.ids[id++] as string;
  }
  const marks = screener.screen(items);
  const duplicates = screened.map(() => [] as number[]);
  for (let j = 0; j < items.count; j++) {
    if (marks[j] !== MARK.duplicate) continue;
    const i = items.lineOf[j] as number;
    kinds[i] = DUPLICATE;
    duplicates[block.route[i] as number]?.push(items.positionOf[j] as number);
  }
  let latest: WallClock | undefined;
  for (const s of screened) {
    const l = s.facts.latest;
    if (l !== undefined && (latest === undefined || isBefore(latest.seconds, latest.nanos, l))) {
      latest = l;
    }
  }
  return {
    kinds,
    ids,
    duplicates: duplicates.map((d) => Int32Array.from(d)),
    indices: indices.map((d) => Int32Array.from(d)),
    ...(latest === undefined ? {} : { latest }),
  };
}

/** The items of a block in file order, from each partition's part; malformed lines to `skip`. */
function gather(
  block: Block,
  screened: readonly Screening[],
  skip: (line: number, reason: string) => void,
): Gathered {
  const kinds = new Uint8Array(block.count);
  const ids: string[] = [];
  const days: number[] = [];
  const lineOf = new Int32Array(block.count);
  const positionOf = new Int32Array(block.count);
  const at = screened.map(() => ({ line: 0, item: 0, id: 0, day: 0, reason: 0 }));
  let count = 0;
  for (let i = 0; i < block.count; i++) {
    const p = block.route[i] as number;
    const s = screened[p] as Screening;
    const c = at[p] as (typeof at)[number];
    const position = c.line++;
    const line = s.lines[position];
    if (line === LINE.blank) continue;
    if (line === LINE.malformed) {
      skip(block.lines[i] as number, s.reasons[c.reason++] as string);
      continue;
    }
    const kind = s.facts.kinds[c.item++] as number;
    kinds[count] = kind;
    lineOf[count] = i;
    positionOf[count] = position;
    count++;
    if (kind === ITEM.invalid) continue;
    ids.push(s.facts.ids[c.id++] as string);
    if (kind === ITEM.knownAtHistoryMerchant) days.push(s.facts.days[c.day++] as number);
  }
  return { kinds: kinds.subarray(0, count), ids, days, lineOf, positionOf, count };
}

/**
 * The outcomes of a block in file order: duplicates made here, the rest as their partitions
 * decided them. Made only when they are taken, so that they die young.
 * @param block - the block
 * @param marks - its marks
 * @param decided - each partition's decided part
 * @returns the outcomes
 */
export function blockOutcomes(
  block: Block,
  marks: BlockMarks,
  decided: readonly DecidedPart[],
): Outcome[] {
  const readers = decided.map((d) => d.outcomes);
  const out: Outcome[] = [];
  for (let i = 0; i < block.count; i++) {
    const k = marks.kinds[i];
    if (k === SKIPPED) continue;
    const id = marks.ids[i] as string | null;
    out.push(
      k === DUPLICATE
        ? duplicateOutcome(id as string)
        : (readers[block.route[i] as number] as OutcomeSource).next(id),
    );
  }
  return out;
}
