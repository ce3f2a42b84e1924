/** UTF-8 with one leading byte-order mark dropped and bad bytes replaced (U+FFFD). */
const UTF8 = new TextDecoder();
/** The same, keeping a byte-order mark: an item's text is not the start of the body. */
const UTF8_KEEP_BOM = new TextDecoder('utf-8', { ignoreBOM: true });

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

const isSpace = (c: number | undefined) => c === SPACE || c === LF || c === CR || c === TAB;

/** How much a body may hold before the reading stops. */
export interface JsonBodyLimits {
  /** Most items of a top-level array. */
  readonly items: number;
  /** Most levels of arrays and objects, the top-level value being level 1. */
  readonly depth: number;
}

const UNLIMITED: JsonBodyLimits = {
  items: Number.POSITIVE_INFINITY,
  depth: Number.POSITIVE_INFINITY,
};

/** A body over one of its {@link JsonBodyLimits}, found before the rest of it was parsed. */
export class JsonBodyLimitError extends Error {
  /**
   * @param limit - which limit: `items` or `depth`
   * @param value - the limit
   */
  constructor(
    readonly limit: 'items' | 'depth',
    readonly value: number,
    /** For `items`: how many the array holds, counted on its commas without parsing them. */
    readonly found?: number,
  ) {
    super(`The body is over its ${limit} limit of ${value}`);
    this.name = 'JsonBodyLimitError';
  }
}

/**
 * Where the string that opens at `open` ends: the index of its closing quote, escapes skipped, or
 * `to` or past it when it does not close before `to`.
 */
function closingQuote(bytes: Uint8Array, open: number, to: number): number {
  let i = open + 1;
  for (; i < to; i++) {
    const c = bytes[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) break;
  }
  return i;
}

/**
 * Scans the brackets of `bytes[from, to)` (outside strings) once: throws when arrays and objects
 * nest deeper than `depth` levels, and returns how many items a top-level array holds (its commas
 * at level 1, plus one; for a body that is not one, a number that means nothing).
 */
function scan(bytes: Uint8Array, from: number, to: number, depth: number): number {
  let level = 0;
  let commas = 0;
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c === QUOTE) i = closingQuote(bytes, i, to);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++level > depth) throw new JsonBodyLimitError('depth', depth);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) level--;
    else if (c === COMMA && level === 1) commas++;
  }
  return commas + 1;
}

/**
 * A request body read as `JSON.parse(new TextDecoder().decode(bytes))` would read it (the same
 * value, or a `SyntaxError` for the same bodies), but a JSON array is parsed item by item, and
 * the reading stops as soon as the body goes over `limits`: at the first item past
 * `limits.items`, or before anything is parsed when its brackets (outside strings) nest deeper
 * than `limits.depth` levels, whether or not the body is valid JSON.
 *
 * Why by hand: a body with a few characters past U+00FF decodes into one two-byte string of twice
 * its size, which alone took longer than `JSON.parse` of it; items decoded and parsed one at a
 * time are small strings (docs/benchmarks.md, "remembered tokens, item-by-item bodies"). And a
 * body of millions of tiny items or levels would be parsed in full before being refused. The
 * split only has to be right for valid JSON: each piece goes through `JSON.parse`, and pieces
 * that all parse, joined as `[a,b,…]`, are valid JSON.
 * @param bytes - the body
 * @param limits - items and depth; unlimited by default
 * @returns the parsed value
 * @throws SyntaxError when the body is not valid JSON
 * @throws JsonBodyLimitError when it goes over a limit
 */
export function parseJsonBody(bytes: Uint8Array, limits: JsonBodyLimits = UNLIMITED): unknown {
  const n = bytes.length;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (isSpace(bytes[i])) i++;
  const limited = limits.depth !== UNLIMITED.depth || limits.items !== UNLIMITED.items;
  const count = limited ? scan(bytes, i, n, limits.depth) : 0;
  if (bytes[i] !== OPEN_ARRAY) return JSON.parse(UTF8.decode(bytes));
  i++;
  while (isSpace(bytes[i])) i++;
  const items: unknown[] = [];
  if (bytes[i] === CLOSE_ARRAY) i++;
  else {
    for (;;) {
      if (items.length >= limits.items) {
        throw new JsonBodyLimitError('items', limits.items, count);
      }
      const start = i;
      let depth = 0;
      // To the comma or bracket that ends this item: outside strings, at depth 0.
      for (; i < n; i++) {
        const c = bytes[i];
        if (c === QUOTE) i = closingQuote(bytes, i, n);
        else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
        else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
          if (depth === 0) break;
          depth--;
        } else if (c === COMMA && depth === 0) break;
      }
      if (i >= n || bytes[i] === CLOSE_OBJECT) {
        throw new SyntaxError('Unexpected end or bracket in the JSON array');
      }
      items.push(JSON.parse(UTF8_KEEP_BOM.decode(bytes.subarray(start, i))));
      if (bytes[i++] === CLOSE_ARRAY) break;
    }
  }
  while (isSpace(bytes[i])) i++;
  if (i < n) throw new SyntaxError('Unexpected data after the JSON array');
  return items;
}
