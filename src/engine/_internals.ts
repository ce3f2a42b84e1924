import { type Cashback, cashbackDecimal } from '../matching/cashback.js';
import type { ItemError } from '../model/errors.js';
import type { ErrorMap } from './results.js';

/**
 * Per-item errors as the seed's map; messages of one key are joined with `; ` in input order (a
 * message already there is not repeated), so that nothing is lost when two items share an id: a
 * duplicate after an unpaid first copy.
 * @internal
 */
export function _errorMap(errors: readonly ItemError[]): ErrorMap {
  // Without a prototype, every key (`__proto__` included) is an own data property; it is also
  // the fastest to fill (a plain object then converted cost 15% of addTransactions: measured).
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

/** Deep equality of two JSON values (object key order ignored). @internal */
export function _sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => _sameJson(v, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    _sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/**
 * Cashback as the exact plain decimal text a store keeps (`0.62`, never `6.2e-1`), without
 * trailing zeros.
 * @internal
 */
export function _cashbackText(c: Cashback, scale: number): string {
  if (!Number.isSafeInteger(c.units)) return cashbackDecimal(c, scale).toFixed();
  if (scale === 0) return String(c.units);
  const digits = String(c.units).padStart(scale + 1, '0');
  const fraction = digits.slice(-scale).replace(/0+$/, '');
  const whole = digits.slice(0, -scale);
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
