// The replay of one partition of `cashback replay --workers N`: the transactions routed to it
// (Routes.ts), classified then decided block by block by its replay session, which owns the
// rules; the reading thread's screener decides duplicates and date order over every partition in
// between (docs/replay.md, Workers). Partition 0 runs in the reading thread, the others in
// worker threads (partitionWorker.ts).
import type { Outcome } from '../../core/outcome.js';
import { openReplay, type ReplayCore } from '../../core/replay/ReplayCore.js';
import type { ChunkFacts } from '../../core/screening.js';
import type { WallClock } from '../../model/dateTime.js';
import type { ResolvedOptions } from '../../model/options.js';
import {
  type ParsedTransaction,
  type ParseResult,
  parseTransaction,
} from '../../model/parseTransaction.js';
import type { Part } from './blocks.js';

/** What a partition starts from: plain data, copied to a worker thread. */
export interface PartitionInit {
  readonly offers: unknown[];
  /** The customers of this partition, as read (invalid ones included). */
  readonly customers: unknown[];
  /** The activations its transactions read, as read. */
  readonly activations: unknown[];
  /** The history that one replay stores and this partition decides on, in file order. */
  readonly history: unknown[];
  readonly options: Pick<ResolvedOptions, 'timeZone' | 'scale' | 'rounding' | 'currency'> & {
    readonly maxLatenessDays: number;
  };
}

/** What a line of a part is, before its item is screened. */
export const LINE = {
  /** A line of white space only: not a transaction. */
  blank: 0,
  /** A line that is not JSON: reported and skipped. */
  malformed: 1,
  /** A transaction, valid or not. */
  item: 2,
} as const;

/** What screening a part found. */
export interface Screening {
  /** Per line (or record) of the part, a value of `LINE`. */
  readonly lines: Uint8Array;
  /** The part's items, as the partition's session classifies them. */
  readonly facts: ChunkFacts;
  /** Why, for each malformed line. */
  readonly reasons: string[];
}

/**
 * A date-time as a record of its own fields. A worker thread's reply is a structured clone, which
 * keeps own fields only, and a parsed date-time makes its texts in getters: without this, the
 * reading thread got the latest date-time of a block without its text, and a replay with workers
 * printed its liability as of no instant.
 */
function plainClock(w: WallClock): WallClock {
  const { text, dayText, day, year, monthDay, weekday, hour, seconds, nanos } = w;
  return { text, dayText, day, year, monthDay, weekday, hour, seconds, nanos };
}

/** A screened part, kept until its decision. */
interface Pending {
  readonly lines: Uint8Array;
  /** Per line, its parse result (none for a blank or malformed line). */
  readonly parsed: ParseResult<ParsedTransaction>[];
  /** The value of each invalid item, parsed again once its stream index is known. */
  readonly invalid: Map<number, unknown>;
}

/** Bytes decoded at a time: strings this short are made in the young generation and die there. */
const DECODE_WINDOW = 1 << 15;

/**
 * The items of a part: NDJSON lines come as UTF-8 and are decoded and parsed here, a window of
 * whole lines at a time (one string for the whole part would be a large object, freed only by a
 * full collection).
 */
function itemsOf(part: Part): { items: readonly unknown[]; texts: boolean } {
  if ('records' in part) return { items: part.records, texts: false };
  const bytes = Buffer.from(part.text.buffer, part.text.byteOffset, part.text.byteLength);
  const lines: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    const cut = bytes.indexOf(0x0a, Math.min(start + DECODE_WINDOW, bytes.length - 1));
    const window = bytes.toString('utf8', start, cut).split('\n');
    for (const line of window) lines.push(line);
    start = cut + 1;
  }
  return { items: lines, texts: true };
}

/** One partition's replay session and the parts screened but not yet decided. */
export class PartitionReplay {
  private readonly session: ReplayCore;
  private readonly timeZone: string;
  private readonly pending = new Map<number, Pending>();

  /** @param init - offers, this partition's customers and history, options */
  constructor(init: PartitionInit) {
    const { maxLatenessDays, timeZone, scale, rounding, currency } = init.options;
    this.session = openReplay(
      {
        offers: init.offers,
        customers: init.customers,
        activations: init.activations,
        history: init.history,
      },
      { timeZone, scale, rounding, currency, maxLatenessDays },
    );
    this.timeZone = timeZone;
  }

  /**
   * Parses a part of a block, and classifies its items by the session's customers and offers:
   * what the reading thread's screener needs to mark duplicates and check date order across
   * partitions.
   * @param block - the block's number
   * @param part - this partition's items of it
   * @returns what each line and item is
   */
  screen(block: number, part: Part): Screening {
    const { items, texts } = itemsOf(part);
    const lines = new Uint8Array(items.length);
    const parsed = new Array<ParseResult<ParsedTransaction>>(items.length);
    const chunk: ParseResult<ParsedTransaction>[] = [];
    const invalid = new Map<number, unknown>();
    const reasons: string[] = [];
    for (let i = 0; i < items.length; i++) {
      let value = items[i];
      if (texts) {
        const line = value as string;
        if (line.trim() === '') continue; // LINE.blank
        try {
          value = JSON.parse(line);
        } catch (err) {
          lines[i] = LINE.malformed;
          reasons.push(`not valid JSON: ${(err as Error).message}`);
          continue;
        }
      }
      lines[i] = LINE.item;
      const p = parseTransaction(value, 0, this.timeZone);
      parsed[i] = p;
      chunk.push(p);
      if (!p.ok) invalid.set(i, value);
    }
    this.pending.set(block, { lines, parsed, invalid });
    const facts = this.session.classify(chunk);
    const latest = facts.latest;
    return {
      lines,
      facts: latest === undefined ? facts : { ...facts, latest: plainClock(latest) },
      reasons,
    };
  }

  /**
   * Decides a screened part, leaving out the duplicates the reading thread's screener found.
   * @param block - the block's number (screened before, blocks in order)
   * @param duplicates - positions in the part of the duplicates, ascending
   * @param indices - the stream index of each invalid item, for its `#<index>` key
   * @returns the outcomes of the items that are not duplicates, in order
   */
  decide(block: number, duplicates: Int32Array, indices: Int32Array): readonly Outcome[] {
    const screened = this.pending.get(block);
    if (screened === undefined) throw new Error(`block ${block} was not screened`);
    this.pending.delete(block);
    const { lines, parsed, invalid } = screened;
    const fresh: ParseResult<ParsedTransaction>[] = [];
    let duplicate = 0;
    let index = 0;
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] !== LINE.item) continue;
      const p = parsed[i] as ParseResult<ParsedTransaction>;
      if (duplicates[duplicate] === i) duplicate++;
      else if (!p.ok) {
        fresh.push(parseTransaction(invalid.get(i), indices[index++] as number, this.timeZone));
      } else fresh.push(p);
    }
    return this.session.decideScreened(fresh);
  }

  /** Purchases the partition's session holds now. */
  purchases(): number {
    return this.session.retained().purchases;
  }
}
