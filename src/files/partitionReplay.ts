// The replay of one partition of `cashback replay --workers N`: the transactions of its own
// customers, screened then decided block by block. Partition 0 runs in the reading thread, the
// others in worker threads (src/files/replayWorker.ts); how the reading thread drives them, and
// why the output is one replay's: src/files/workers.ts and docs/replay.md (Workers).

import { screenCustomers } from '../core/index.js';
import {
  compileOffers,
  createReplay,
  type Outcome,
  type ParsedTransaction,
  type ParseResult,
  parseTransaction,
  type ReplaySession,
} from '../index.js';
import type { OfferSet } from '../matching/compileOffers.js';
import type { ResolvedOptions } from '../model/options.js';
import type { Part } from './blocks.js';

/** What a partition starts from: plain data, copied to a worker thread. */
export interface PartitionInit {
  readonly offers: unknown[];
  /** The customers of this partition, as read (invalid ones included). */
  readonly customers: unknown[];
  /** The history of this partition's customers that one replay stores, in file order. */
  readonly history: unknown[];
  readonly options: Pick<ResolvedOptions, 'timeZone' | 'scale' | 'rounding' | 'currency'> & {
    readonly maxLatenessDays: number;
  };
}

/** What screening found of each item of a partition's part of a block. */
export const ITEM = {
  /** A line of white space only: not a transaction. */
  blank: 0,
  /** A line that is not JSON: reported and skipped. */
  malformed: 1,
  /** Invalid: it has no transaction id to store. */
  invalid: 2,
  /** Valid, of a customer not registered: never stored, but may be a duplicate. */
  unknownCustomer: 3,
  /** Valid, of a known customer: stored unless a duplicate. */
  known: 4,
  /** As `known`, at a merchant whose offers read history: its day counts for date order. */
  knownAtHistoryMerchant: 5,
} as const;

/** What screening a part found. */
export interface Screening {
  /** Per item, a value of `ITEM`. */
  readonly status: Uint8Array;
  /** The transaction id of each valid item. */
  readonly ids: string[];
  /** The day of each item `knownAtHistoryMerchant`. */
  readonly days: Int32Array;
  /** Why, for each malformed item. */
  readonly reasons: string[];
}

/** A screened part, kept until its decision. */
interface Pending {
  readonly status: Uint8Array;
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
  private readonly offers: OfferSet;
  private readonly session: ReplaySession;
  private readonly known: Set<string>;
  private readonly timeZone: string;
  private readonly pending = new Map<number, Pending>();

  /** @param init - offers, this partition's customers and history, options */
  constructor(init: PartitionInit) {
    const { maxLatenessDays, timeZone, scale, rounding, currency } = init.options;
    this.offers = compileOffers(init.offers);
    this.session = createReplay(
      { offers: this.offers, customers: init.customers, history: init.history },
      { timeZone, scale, rounding, currency, maxLatenessDays },
    );
    this.known = new Set(screenCustomers(init.customers).accepted.map((c) => c.customerId));
    this.timeZone = timeZone;
  }

  /**
   * Parses and screens a part of a block: what the reading thread needs to mark duplicates and
   * check date order across partitions.
   * @param block - the block's number
   * @param part - this partition's items of it
   * @returns what each item is
   */
  screen(block: number, part: Part): Screening {
    const { items, texts } = itemsOf(part);
    const status = new Uint8Array(items.length);
    const parsed = new Array<ParseResult<ParsedTransaction>>(items.length);
    const invalid = new Map<number, unknown>();
    const ids: string[] = [];
    const days: number[] = [];
    const reasons: string[] = [];
    for (let i = 0; i < items.length; i++) {
      let value = items[i];
      if (texts) {
        const line = value as string;
        if (line.trim() === '') {
          status[i] = ITEM.blank;
          continue;
        }
        try {
          value = JSON.parse(line);
        } catch (err) {
          status[i] = ITEM.malformed;
          reasons.push(`not valid JSON: ${(err as Error).message}`);
          continue;
        }
      }
      const p = parseTransaction(value, 0, this.timeZone);
      parsed[i] = p;
      if (!p.ok) {
        status[i] = ITEM.invalid;
        invalid.set(i, value);
        continue;
      }
      const tx = p.value;
      ids.push(tx.transactionId);
      if (!this.known.has(tx.customerId)) status[i] = ITEM.unknownCustomer;
      else if (!this.offers.historyKeys.has(tx.merchantKey)) status[i] = ITEM.known;
      else {
        status[i] = ITEM.knownAtHistoryMerchant;
        days.push(tx.when.day);
      }
    }
    this.pending.set(block, { status, parsed, invalid });
    return { status, ids, days: Int32Array.from(days), reasons };
  }

  /**
   * Decides a screened part, leaving out the duplicates the reading thread found.
   * @param block - the block's number (screened before, blocks in order)
   * @param duplicates - positions in the part of the duplicates, ascending
   * @param indices - the stream index of each invalid item, for its `#<index>` key
   * @returns the outcomes of the items neither skipped nor duplicates, in order
   */
  decide(block: number, duplicates: Int32Array, indices: Int32Array): readonly Outcome[] {
    const screened = this.pending.get(block);
    if (screened === undefined) throw new Error(`block ${block} was not screened`);
    this.pending.delete(block);
    const { status, parsed, invalid } = screened;
    const fresh: ParseResult<ParsedTransaction>[] = [];
    let duplicate = 0;
    let index = 0;
    for (let i = 0; i < status.length; i++) {
      const s = status[i] as number;
      if (s === ITEM.blank || s === ITEM.malformed) continue;
      if (duplicates[duplicate] === i) duplicate++;
      else if (s === ITEM.invalid) {
        fresh.push(parseTransaction(invalid.get(i), indices[index++] as number, this.timeZone));
      } else fresh.push(parsed[i] as ParseResult<ParsedTransaction>);
    }
    return this.session.pushParsed(fresh);
  }

  /** Purchases the partition's session holds now. */
  purchases(): number {
    return this.session.retained().purchases;
  }
}
