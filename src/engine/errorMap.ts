import type { ItemError } from '../model/errors.js';
import type { ErrorMap } from './results.js';

/**
 * Per-item errors as the partner API's map; messages of one key are joined with `; ` in input
 * order (a message already there is not repeated), so that nothing is lost when two items share
 * an id: a duplicate after an unpaid first copy (docs/engine.md, decisions).
 * @param errors - the errors, in input order
 * @returns the map, without a prototype
 */
export function errorMap(errors: readonly ItemError[]): ErrorMap {
  // Without a prototype, every key (`__proto__` included) is an own data property; it is also
  // the cheapest to fill (docs/benchmarks.md).
  const map: Record<string, string> = Object.create(null);
  // Keys with more than one message, and their distinct messages (rare: kept out of the loop).
  let shared: Map<string, string[]> | undefined;
  for (const e of errors) {
    const before = map[e.key];
    if (before === undefined) {
      map[e.key] = e.message;
      continue;
    }
    shared ??= new Map();
    const messages = shared.get(e.key) ?? [before];
    if (!messages.includes(e.message)) messages.push(e.message);
    shared.set(e.key, messages);
    map[e.key] = messages.join('; ');
  }
  return map;
}
