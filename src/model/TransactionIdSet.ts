import { isWholeNumber } from './wholeNumber.js';

/** Smallest table: 16 slots. */
const MIN_CAPACITY = 16;

/**
 * Most slots a lookup reads from an id's home slot: an id kept in the table lies within this many
 * slots of it, and an id whose window is full goes to the overflow map. Random ids at the table's
 * load (at most one half) pass it about once in 2,000 (docs/decisions.md, Stored ids).
 */
export const MAX_PROBES = 16;

/** What `find` answers when the id is not in the window and the window has no empty slot. */
const WINDOW_FULL = -(2 ** 30);

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
 * The hash is public and unseeded (the core reads no randomness), so ids can be made to share
 * one: a lookup reads at most {@link MAX_PROBES} slots, and an id whose window is full is kept in
 * a builtin `Map`, whose string hash the JavaScript engine seeds per process. Ids built to collide
 * then cost a bounded number of probes each instead of one per id stored before them.
 *
 * Iteration yields the ids in insertion order.
 * @public
 */
export class TransactionIdSet implements Iterable<string> {
  /** Pairs `[hash, index + 1]` per slot; index 0 marks an empty slot. */
  private slots: Int32Array;
  private mask: number;
  private readonly keys: string[] = [];
  /** Ids whose window was full when placed, to their `index + 1` in `keys`. */
  private readonly overflow = new Map<string, number>();
  /**
   * True after `truncate` emptied a slot while `overflow` held ids: one of them may now have an
   * empty slot in its window, so a lookup that meets one checks `overflow` too, until `grow`
   * places them again.
   */
  private holes = false;
  /** Slots read by lookups since the set was made: a structural measure for tests. */
  private probes = 0;

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

  /**
   * The slot holding `id`, or the empty slot where it would go as `-(slot + 1)`, or `WINDOW_FULL`
   * when neither lies within {@link MAX_PROBES} slots of its home.
   */
  private find(id: string, hash: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let slot = hash & mask;
    for (let step = 1; step <= MAX_PROBES; step++) {
      const at = slot << 1;
      const index = slots[at + 1] as number;
      if (index === 0 || (slots[at] === hash && this.keys[index - 1] === id)) {
        this.probes += step;
        return index === 0 ? -(slot + 1) : slot;
      }
      slot = (slot + 1) & mask;
    }
    this.probes += MAX_PROBES;
    return WINDOW_FULL;
  }

  /** Whether `id`, not in the table (`found` < 0), is in the overflow map. */
  private overflowed(id: string, found: number): boolean {
    if (found !== WINDOW_FULL && !this.holes) return false;
    return this.overflow.size > 0 && this.overflow.has(id);
  }

  /** Whether `id` is in the set. */
  has(id: string): boolean {
    const found = this.find(id, hashId(id));
    return found >= 0 || this.overflowed(id, found);
  }

  /**
   * Where `id` is in insertion order.
   * @param id - the id
   * @returns its 0-based position among the ids added, or -1 when it is not in the set
   */
  indexOf(id: string): number {
    const found = this.find(id, hashId(id));
    if (found >= 0) return (this.slots[(found << 1) + 1] as number) - 1;
    return this.overflowed(id, found) ? (this.overflow.get(id) as number) - 1 : -1;
  }

  /**
   * Adds `id`.
   * @returns true when it was not in the set before
   */
  add(id: string): boolean {
    const hash = hashId(id);
    const found = this.find(id, hash);
    if (found >= 0 || this.overflowed(id, found)) return false;
    this.keys.push(id);
    if (found === WINDOW_FULL) {
      this.overflow.set(id, this.keys.length);
      return true;
    }
    const at = (-found - 1) << 1;
    this.slots[at] = hash;
    this.slots[at + 1] = this.keys.length;
    // At most half full, so probe runs stay short; ids in `overflow` take no slot.
    if ((this.keys.length - this.overflow.size) * 2 > this.mask + 1) this.grow();
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
      if (!this.overflow.delete(id)) {
        this.removeSlot(this.find(id, hashId(id)));
        if (this.overflow.size > 0) this.holes = true;
      }
      this.keys.pop();
    }
  }

  /**
   * Empties a slot and shifts back the entries after it that probed past it (deletion without
   * tombstones for linear probing), so every remaining id is still found; an entry only moves
   * nearer its home, so it stays within its window.
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

  /** Places `[hash, index]` within its window; false when the window is full. */
  private place(slots: Int32Array, mask: number, hash: number, index: number): boolean {
    let slot = hash & mask;
    for (let step = 0; step < MAX_PROBES; step++) {
      if (slots[(slot << 1) + 1] === 0) {
        slots[slot << 1] = hash;
        slots[(slot << 1) + 1] = index;
        return true;
      }
      slot = (slot + 1) & mask;
    }
    return false;
  }

  /**
   * Doubles the table. Stored hashes are kept in it, so an id in the table is neither hashed nor
   * read again; one whose window is full in the new table moves to `overflow`, and then each id
   * of `overflow` with an empty slot in its window moves into the table.
   */
  private grow(): void {
    const old = this.slots;
    const capacity = (this.mask + 1) * 2;
    const slots = new Int32Array(capacity * 2);
    const mask = capacity - 1;
    const earlier = [...this.overflow];
    for (let at = 0; at < old.length; at += 2) {
      const index = old[at + 1] as number;
      if (index === 0) continue;
      if (!this.place(slots, mask, old[at] as number, index)) {
        this.overflow.set(this.keys[index - 1] as string, index);
      }
    }
    for (const [id, index] of earlier) {
      if (this.place(slots, mask, hashId(id), index)) this.overflow.delete(id);
    }
    this.slots = slots;
    this.mask = mask;
    this.holes = false;
  }
}
