import { isWholeNumber } from './wholeNumber.js';

/** Smallest table: 16 slots. */
const MIN_CAPACITY = 16;

/**
 * FNV-1a over the UTF-16 code units of a string, as a signed 32-bit integer.
 * @param id - the string
 * @returns its hash
 */
export function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h | 0;
}

/**
 * A set of transaction ids that only grows (apart from undoing the latest additions), for callers
 * that hold every stored id in memory: a replay of millions of transactions.
 *
 * It does what a `Set<string>` does for this job, faster at a million ids (docs/decisions.md,
 * figures in docs/benchmarks.md): the table is open addressing with linear probing over an
 * `Int32Array` of `[hash, index]` pairs, so a probe reads one cache line and a stored id string is
 * read only when the 32-bit hashes are equal, where a builtin `Set` reads a bucket, a chain entry
 * and the stored key for every probe.
 *
 * Iteration yields the ids in insertion order.
 * @public
 */
export class TransactionIdSet implements Iterable<string> {
  /** Pairs `[hash, index + 1]` per slot; index 0 marks an empty slot. */
  private slots: Int32Array;
  private mask: number;
  private readonly keys: string[] = [];

  /**
   * @param ids - ids to start with (duplicates are kept once)
   */
  constructor(ids: Iterable<string> = []) {
    this.slots = new Int32Array(MIN_CAPACITY * 2);
    this.mask = MIN_CAPACITY - 1;
    for (const id of ids) this.add(id);
  }

  /** Number of ids in the set. */
  get size(): number {
    return this.keys.length;
  }

  /** The slot holding `id`, or the empty slot where it would go, as `-(slot + 1)`. */
  private find(id: string, hash: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let slot = hash & mask;
    for (;;) {
      const at = slot << 1;
      const index = slots[at + 1] as number;
      if (index === 0) return -(slot + 1);
      if (slots[at] === hash && this.keys[index - 1] === id) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** Whether `id` is in the set. */
  has(id: string): boolean {
    return this.find(id, hashId(id)) >= 0;
  }

  /**
   * Where `id` is in insertion order.
   * @param id - the id
   * @returns its 0-based position among the ids added, or -1 when it is not in the set
   */
  indexOf(id: string): number {
    const slot = this.find(id, hashId(id));
    return slot < 0 ? -1 : (this.slots[(slot << 1) + 1] as number) - 1;
  }

  /**
   * Adds `id`.
   * @returns true when it was not in the set before
   */
  add(id: string): boolean {
    const hash = hashId(id);
    const found = this.find(id, hash);
    if (found >= 0) return false;
    const at = (-found - 1) << 1;
    this.keys.push(id);
    this.slots[at] = hash;
    this.slots[at + 1] = this.keys.length;
    // At most half full, so probe runs stay short.
    if (this.keys.length * 2 > this.mask + 1) this.grow();
    return true;
  }

  /**
   * Removes the ids added last, newest first, until `size` ids are left: how a caller undoes the
   * additions of a batch that failed.
   * @param size - the size to go back to (at most the current size)
   */
  truncate(size: number): void {
    if (!isWholeNumber(size, 0, this.keys.length)) {
      throw new RangeError(`truncate: size must be an integer from 0 to ${this.keys.length}`);
    }
    while (this.keys.length > size) {
      const id = this.keys[this.keys.length - 1] as string;
      this.removeSlot(this.find(id, hashId(id)));
      this.keys.pop();
    }
  }

  /**
   * Empties a slot and shifts back the entries after it that probed past it (deletion without
   * tombstones for linear probing), so every remaining id is still found.
   */
  private removeSlot(slot: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let hole = slot;
    let next = (hole + 1) & mask;
    while (slots[(next << 1) + 1] !== 0) {
      const home = (slots[next << 1] as number) & mask;
      // The entry at `next` may move into the hole unless its home lies cyclically in (hole, next].
      const between = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!between) {
        slots[hole << 1] = slots[next << 1] as number;
        slots[(hole << 1) + 1] = slots[(next << 1) + 1] as number;
        hole = next;
      }
      next = (next + 1) & mask;
    }
    slots[hole << 1] = 0;
    slots[(hole << 1) + 1] = 0;
  }

  /** The ids in insertion order. */
  [Symbol.iterator](): Iterator<string> {
    return this.keys[Symbol.iterator]();
  }

  /** Doubles the table; hashes are kept in it, so no id is hashed or read again. */
  private grow(): void {
    const old = this.slots;
    const capacity = (this.mask + 1) * 2;
    const slots = new Int32Array(capacity * 2);
    const mask = capacity - 1;
    for (let at = 0; at < old.length; at += 2) {
      const index = old[at + 1] as number;
      if (index === 0) continue;
      const hash = old[at] as number;
      let slot = hash & mask;
      while (slots[(slot << 1) + 1] !== 0) slot = (slot + 1) & mask;
      slots[slot << 1] = hash;
      slots[(slot << 1) + 1] = index;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
