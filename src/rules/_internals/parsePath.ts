const WHOLE = /^\$(?:\.[A-Za-z_$][\w$]*|\['[^'\\]*'\]|\["[^"\\]*"\])*$/;
const STEP = /\.([A-Za-z_$][\w$]*)|\['([^'\\]*)'\]|\["([^"\\]*)"\]/g;

/**
 * Splits a JSONPath of plain member steps (`$.location.city`, `$['location']`) into its
 * property names; `undefined` for anything else (wildcards, filters, indexes, `..`).
 */
export function parsePath(path: string): readonly string[] | undefined {
  if (!WHOLE.test(path)) return undefined;
  return [...path.matchAll(STEP)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}
