// Screening: what an item is and what becomes of it, in the order of checks of docs/concepts.md
// (validation, duplicate, customer), for `decide` and the replay session alike (`screenMark`).
// In a replay (docs/replay.md, Order) the session's customers and offers say what an item is
// (`ITEM`); its `Screener` of stored ids and dates then says what becomes of it (`MARK`). The two
// halves are apart so that `cashback replay --workers N` can ask each partition's session for the
// first and one screener, over every partition, for the second.

import type { WallClock } from '../model/dateTime.js';

/** What an item of a chunk is, as the session's customers and offers say. */
export const ITEM = {
  /** Not a valid transaction: it has no id to store. */
  invalid: 0,
  /** Valid, of a customer not registered: never stored, but may be a duplicate. */
  unknownCustomer: 1,
  /** Valid, of a registered customer: stored unless a duplicate. */
  known: 2,
  /** As `known`, at a merchant whose offers read history: its day counts for date order. */
  knownAtHistoryMerchant: 3,
} as const;

/** What becomes of an item of a chunk, as the ledger says. */
export const MARK = {
  /** Invalid: decided as such. */
  invalid: 0,
  /** Its id is stored already, or by an item before it: a duplicate, whoever its customer. */
  duplicate: 1,
  /** Not a duplicate, of a customer not registered: not stored. */
  unknownCustomer: 2,
  /** Stored (and decided). */
  stored: 3,
} as const;

/** A chunk as screening reads it, item by item, in order. */
export interface ChunkFacts {
  /** Per item, a value of `ITEM`. */
  readonly kinds: Uint8Array;
  /** The transaction id of each item that is not invalid, in order. */
  readonly ids: readonly string[];
  /** The day (see `calendarDay`) of each item `knownAtHistoryMerchant`, in order. */
  readonly days: ArrayLike<number>;
  /** The latest date-time of the chunk's valid items, when it has any (a replay's `asOf`). */
  readonly latest?: WallClock;
}

/** The ids already stored, and a way to store one: what the order of screening reads. */
export interface ScreenedIds {
  /** Whether the id is stored (or claimed by an earlier item of the batch). */
  has(id: string): boolean;
  /** Stores the id; `false` when it was stored already. */
  add(id: string): boolean;
}

/**
 * What becomes of one item, in the order of checks of docs/concepts.md: validation, duplicate,
 * customer. A duplicate wins over an unknown customer (a valid item of an unknown customer can
 * be a duplicate too); the id of an item that will be stored is stored here. The one owner of
 * that order: `decide` and the replay session's `Screener` both screen through it.
 * @param kind - what the item is (`ITEM`)
 * @param id - its transaction id (unread for an invalid item)
 * @param ids - the ids stored
 * @returns a value of `MARK`
 */
export function screenMark(kind: number, id: string, ids: ScreenedIds): number {
  if (kind === ITEM.invalid) return MARK.invalid;
  if (kind === ITEM.unknownCustomer) return ids.has(id) ? MARK.duplicate : MARK.unknownCustomer;
  return ids.add(id) ? MARK.stored : MARK.duplicate;
}
