// What a replay's screening reads and says of each transaction of a chunk (docs/replay.md, Order).
// The session's customers and offers say what an item is (`ITEM`); its ledger of stored ids and
// dates then says what becomes of it (`MARK`). The two halves are apart so that
// `cashback replay --workers N` can ask each partition's session for the first and one ledger,
// over every partition, for the second.

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
}
