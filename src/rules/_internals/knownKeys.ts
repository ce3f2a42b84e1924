import { closest, distance } from 'fastest-levenshtein';
import { describeValue } from './describe.js';

/**
 * Throws a TypeError when `value` is not a plain object or has a key outside `known`, naming the
 * key and the nearest known one: a misspelt option (`timezone` for `timeZone`) must not be
 * ignored quietly. `undefined` passes (every options object of the public API is optional).
 * @param value - the options object as the caller gave it
 * @param known - every key the options object may have
 * @param label - how the object is named in the message, e.g. `'createEngine options'`
 * @param noun - what a key is called in the message: `'option'`, or `'field'` for an input object
 * @throws TypeError for a value that is not an object, or an unknown key
 */
export function assertKnownKeys(
  value: unknown,
  known: readonly string[],
  label: string,
  noun = 'option',
): void {
  if (value === undefined) return;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${label} must be an object, got ${describeValue(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const hint = nearestKey(key, known);
    throw new TypeError(
      `${label}: unknown ${noun} '${key}'${hint === undefined ? '' : `; did you mean '${hint}'?`}` +
        ` (known: ${known.join(', ')})`,
    );
  }
}

/**
 * The known key nearest to `key` in edit distance, ignoring case, when it is near enough.
 * @param key - the unknown key
 * @param known - every key allowed
 * @returns the nearest known key, or `undefined` when none is near enough
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const lower = key.toLowerCase();
  const lowered = known.map((k) => k.toLowerCase());
  const best = closest(lower, lowered);
  // Near enough: a third of the longer name, at least 2 edits (`timezone`, `tokenTTL`, `limts`).
  const allowed = Math.max(2, Math.floor(Math.max(lower.length, best.length) / 3));
  return distance(lower, best) <= allowed ? known[lowered.indexOf(best)] : undefined;
}
