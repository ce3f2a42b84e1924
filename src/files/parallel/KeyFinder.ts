const BACKSLASH = 0x5c;

/** The next `needle` at or after `start`; `found`, the previous answer, while it is not behind. */
function nextFrom(bytes: Buffer, found: number, start: number, needle: Buffer | number): number {
  if (found >= start) return found;
  const at = bytes.indexOf(needle, start);
  return at === -1 ? Number.POSITIVE_INFINITY : at;
}

/**
 * Finds a key in the NDJSON lines of one buffer, taken in order, where the bytes can be trusted to
 * tell it: a line with no backslash has no escape (no quote is escaped, and no `\u` escape can
 * spell the key), and a key that occurs once in it is its one occurrence. Each search goes on from
 * where the last one stopped, so the buffer is searched once.
 */
export class KeyFinder {
  /** The next key and backslash at or after the last line's start; -1 before any. */
  private key = -1;
  private backslash = -1;

  /**
   * @param bytes - the buffer holding the lines
   * @param needle - the key with its quotes, such as `"name"`
   */
  constructor(
    private readonly bytes: Buffer,
    private readonly needle: Buffer,
  ) {}

  /**
   * Where the key stands in the line from `start` to `end` (exclusive), called for lines in order.
   * @param start - where the line starts
   * @param end - where it ends, before the line break
   * @returns the key's position when it occurs once in a line without a backslash; `null` when
   *   such a line has no key; `undefined` when the bytes cannot tell
   */
  find(start: number, end: number): number | null | undefined {
    const { bytes, needle } = this;
    this.backslash = nextFrom(bytes, this.backslash, start, BACKSLASH);
    this.key = nextFrom(bytes, this.key, start, needle);
    const at = this.key;
    if (this.backslash < end) return undefined;
    if (at >= end) return null;
    this.key = nextFrom(bytes, -1, at + needle.length, needle);
    return this.key < end ? undefined : at;
  }
}
