import { findNodeAtLocation, type JSONPath, parseTree, visit } from 'jsonc-parser';

/** The line (1-based) of each offer of an offers file, and of a field inside one. */
export interface OfferLines {
  /**
   * @param index - the offer's position in the array
   * @param path - a field path as findings give it (`conditions.all[0].value`, `age.1`)
   * @returns the line of the field when it is in the file, else of the offer
   */
  lineOf(index: number, path?: string): number | undefined;
}

function segments(path: string): JSONPath {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/**
 * Locates the offers of a JSON array in its text with jsonc-parser's scanner: one pass records
 * where each offer starts and ends (no syntax tree of the whole file is built); a field's line
 * is found, when asked, in the syntax tree of its offer alone. The file has already been parsed
 * as JSON.
 * @param text - the file's text
 * @returns the lines of its offers
 */
export function offerLines(text: string): OfferLines {
  const offers: { start: number; end: number; line: number }[] = [];
  let depth = 0;
  const begin = (offset: number, _length: number, line: number) => {
    if (depth === 1) offers.push({ start: offset, end: offset, line: line + 1 });
    depth += 1;
  };
  const end = (offset: number, length: number) => {
    depth -= 1;
    const last = offers.at(-1);
    if (depth === 1 && last !== undefined) last.end = offset + length;
  };
  visit(text, {
    onObjectBegin: begin,
    onArrayBegin: begin,
    onObjectEnd: end,
    onArrayEnd: end,
    onLiteralValue: (_value, offset, length, line) => {
      if (depth === 1) offers.push({ start: offset, end: offset + length, line: line + 1 });
    },
  });
  return {
    lineOf(index, path) {
      const offer = offers[index];
      if (offer === undefined) return undefined;
      if (path === undefined) return offer.line;
      const tree = parseTree(text.slice(offer.start, offer.end));
      const field = tree && findNodeAtLocation(tree, segments(path));
      if (field === undefined) return offer.line;
      let line = offer.line;
      for (
        let i = text.indexOf('\n', offer.start);
        i !== -1 && i < offer.start + field.offset;
        i = text.indexOf('\n', i + 1)
      ) {
        line += 1;
      }
      return line;
    },
  };
}
