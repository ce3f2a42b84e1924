/**
 * Orders two texts by UTF-16 code unit (JavaScript's `<`), the order of every listing
 * (docs/stores.md), never a locale's: `'B'` before `'a'`, `'😀'` before `'\uFFFD'`.
 * @param a - one text
 * @param b - the other
 * @returns negative, zero or positive, as `Array.prototype.sort` takes it
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
