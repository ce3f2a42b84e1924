const BACKSLASH = 0x5c;

/**
 * The escapes that stand for neither a quote nor any letter of a key: `\t`, `\n`, `\r`, `\b`,
 * `\f`, `\/` and `\\` (a tab in a merchant name is common). `\"` and `\u` are not among them.
 */
const HARMLESS = new Uint8Array(128);
for (const c of 'tnrbf/\\') HARMLESS[c.charCodeAt(0)] = 1;

/** The next `needle` at or after `start`; `found`, the previous answer, while it is not behind. */
function nextFrom(bytes: Buffer, found: number, start: number, needle: Buffer | number): number {
  if (found >= start) return found;
  const at = bytes.indexOf(needle, start);
  return at === -1 ? Number.POSITIVE_INFINITY : at;
}

/**
 * Finds a key in the NDJSON lines of one buffer, taken in order, where the bytes can be trusted to
 * tell it: in a line whose escapes are all harmless (`\t`, `\n`, `\r`, `\b`, `\f`, `\/`, `\\`) no
 * quote is escaped, so every quote opens or closes a string, and no escape spells a letter of the
 * key; a key that occurs once in it is its one occurrence. A value read from the bytes must still
 * hold no backslash to be its characters. Each search goes on from where the last one stopped, so
 * the buffer is searched once.
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
   * @returns the key's position when it occurs once in a line whose escapes are harmless; `null`
   *   when such a line has no key; `undefined` when the bytes cannot tell
   */
  find(start: number, end: number): number | null | undefined {
    const { bytes, needle } = this;
    this.backslash = nextFrom(bytes, this.backslash, start, BACKSLASH);
    while (this.backslash < end) {
      if (HARMLESS[bytes[this.backslash + 1] as number] !== 1) return undefined;
      this.backslash = nextFrom(bytes, -1, this.backslash + 2, BACKSLASH);
    }
    this.key = nextFrom(bytes, this.key, start, needle);
    const at = this.key;
    if (at >= end) return null;
    this.key = nextFrom(bytes, -1, at + needle.length, needle);
    return this.key < end ? undefined : at;
  }
}
