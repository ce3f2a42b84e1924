import { findNodeAtLocation, type JSONPath, type Node, parseTree } from 'jsonc-parser';

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
 * Locates the offers of a JSON array by their position in the text, with jsonc-parser's syntax
 * tree (the file has already been parsed as JSON, so the tree is that of valid JSON).
 * @param text - the file's text
 * @returns the lines of its offers
 */
export function offerLines(text: string): OfferLines {
  const root = parseTree(text);
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const line = (node: Node) => {
    let [lo, hi] = [0, starts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= node.offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return {
    lineOf(index, path) {
      const offer = root?.type === 'array' ? root.children?.[index] : undefined;
      if (offer === undefined) return undefined;
      const field = path === undefined ? undefined : findNodeAtLocation(offer, segments(path));
      return line(field ?? offer);
    },
  };
}
