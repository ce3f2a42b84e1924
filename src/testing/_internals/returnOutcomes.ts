import { isRecord } from '../../rules/_internals/isRecord.js';
import type { ReplayInput, ReplayOutput } from '../invariants/types.js';

/** An adjustment as the invariants read it. */
type ReplayAdjustment = NonNullable<ReplayOutput['adjustments']>[number];
/** A clawback as the invariants read it. */
type ReplayClawback = NonNullable<ReplayOutput['clawbacks']>[number];

/** One return of the input with the outcome the result gave it. */
export interface WalkedReturn {
  /** The return as given. */
  readonly item: unknown;
  /** Its key: its trimmed `return_id`, or `#<index>`. */
  readonly key: string;
  /** Its adjustment, when it adjusted a payment. */
  readonly adjustment?: ReplayAdjustment;
  /** Its clawback, when it arrived once its payment was confirmed and clawed back. */
  readonly clawback?: ReplayClawback;
  /** Its error code, when it adjusted nothing. */
  readonly code?: string;
  /**
   * Whether it was stored: adjusted, clawed back, `not_paid`, `after_warranty` or `late_return`
   * (docs/concepts.md, Returns; Late returns).
   */
  readonly stored: boolean;
}

const STORED_ERRORS = new Set(['not_paid', 'after_warranty', 'late_return']);

/** The next outcome of each list, and how far each list has been read. */
interface Heads {
  a: number;
  c: number;
  e: number;
}

/**
 * Pairs each return of the input with its outcome: the result lists adjustments, clawbacks and
 * return errors apart, each in the order decided, which is the returns' own order.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @returns one entry per return, in order
 * @throws Error when a return has no outcome or an outcome no return
 */
export function walkReturns(input: ReplayInput, result: ReplayOutput): WalkedReturn[] {
  const returns = input.returns ?? [];
  const adjustments = result.adjustments ?? [];
  const clawbacks = result.clawbacks ?? [];
  const errors = result.returnErrors ?? [];
  const stored = new Set<string>();
  const out: WalkedReturn[] = [];
  const at: Heads = { a: 0, c: 0, e: 0 };
  returns.forEach((item, i) => {
    const id = isRecord(item) && typeof item.return_id === 'string' ? item.return_id.trim() : '';
    const key = id === '' ? `#${i}` : id;
    const adj = adjustments[at.a];
    const claw = clawbacks[at.c];
    const err = errors[at.e];
    // A stored return is an adjustment or a clawback, never both: a later return with its id is
    // a duplicate.
    const adjMatches = adj !== undefined && adj.return_id === key;
    const clawMatches = !adjMatches && claw !== undefined && claw.return_id === key;
    const errMatches = err !== undefined && (err.key === key || err.key === `#${i}`);
    // Both match when an id comes twice: a stored id makes the later one the duplicate, and a
    // duplicate error cannot be of an id not stored yet.
    const okMatches = adjMatches || clawMatches;
    const isError =
      errMatches && (!okMatches || stored.has(key) || err.code !== 'duplicate_return');
    if (isError) {
      at.e++;
      const keep = STORED_ERRORS.has(err.code);
      if (keep) stored.add(key);
      out.push({ item, key, code: err.code, stored: keep });
    } else if (adjMatches) {
      at.a++;
      stored.add(key);
      out.push({ item, key, adjustment: adj, stored: true });
    } else if (clawMatches) {
      at.c++;
      stored.add(key);
      out.push({ item, key, clawback: claw, stored: true });
    } else {
      throw new Error(
        `return ${key} (#${i}) has no outcome in adjustments, clawbacks or returnErrors`,
      );
    }
  });
  const left = adjustments.length - at.a + clawbacks.length - at.c + errors.length - at.e;
  if (left > 0) throw new Error(`${left} return outcome(s) of no return`);
  return out;
}
