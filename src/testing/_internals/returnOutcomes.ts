import { isRecord } from '../../rules/_internals/isRecord.js';
import type { ReplayInput, ReplayOutput } from '../invariants/types.js';

/** An adjustment as the invariants read it. */
type ReplayAdjustment = NonNullable<ReplayOutput['adjustments']>[number];

/** One return of the input with the outcome the result gave it. */
export interface WalkedReturn {
  /** The return as given. */
  readonly item: unknown;
  /** Its key: its trimmed `return_id`, or `#<index>`. */
  readonly key: string;
  /** Its adjustment, when it adjusted a payment. */
  readonly adjustment?: ReplayAdjustment;
  /** Its error code, when it adjusted nothing. */
  readonly code?: string;
  /** Whether it was stored: adjusted, `not_paid` or `after_warranty` (docs/concepts.md, Returns). */
  readonly stored: boolean;
}

const STORED_ERRORS = new Set(['not_paid', 'after_warranty']);

/**
 * Pairs each return of the input with its outcome: the result lists adjustments and return errors
 * apart, each in the order decided, which is the returns' own order.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @returns one entry per return, in order
 * @throws Error when a return has no outcome or an outcome no return
 */
export function walkReturns(input: ReplayInput, result: ReplayOutput): WalkedReturn[] {
  const returns = input.returns ?? [];
  const adjustments = result.adjustments ?? [];
  const errors = result.returnErrors ?? [];
  const stored = new Set<string>();
  const out: WalkedReturn[] = [];
  let a = 0;
  let e = 0;
  returns.forEach((item, i) => {
    const id = isRecord(item) && typeof item.return_id === 'string' ? item.return_id.trim() : '';
    const key = id === '' ? `#${i}` : id;
    const adj = adjustments[a];
    const err = errors[e];
    const adjMatches = adj !== undefined && adj.return_id === key;
    const errMatches = err !== undefined && (err.key === key || err.key === `#${i}`);
    // Both match when an id comes twice: a stored id makes the later one the duplicate, and a
    // duplicate error cannot be of an id not stored yet.
    const isError =
      errMatches && (!adjMatches || stored.has(key) || err.code !== 'duplicate_return');
    if (isError) {
      e++;
      const keep = STORED_ERRORS.has(err.code);
      if (keep) stored.add(key);
      out.push({ item, key, code: err.code, stored: keep });
    } else if (adjMatches) {
      a++;
      stored.add(key);
      out.push({ item, key, adjustment: adj, stored: true });
    } else {
      throw new Error(`return ${key} (#${i}) has no outcome in adjustments or returnErrors`);
    }
  });
  if (a < adjustments.length || e < errors.length) {
    throw new Error(`${adjustments.length - a + errors.length - e} return outcome(s) of no return`);
  }
  return out;
}
