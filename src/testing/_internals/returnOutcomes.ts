import { parseReturn } from '../../model/parseReturn.js';
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

/** Which list a return's outcome is in. */
type Step = 'error' | 'adjustment' | 'clawback';

/** The returns and the three lists of outcomes, read together. */
class Walk {
  /** How far each list has been read. */
  a = 0;
  c = 0;
  e = 0;
  /** Return ids stored so far, with how often (a path may store one, undo, store again). */
  private readonly stored = new Map<string, number>();
  /** Whether each return reads (a return that does not is `invalid_return`, check 1). */
  private readonly reads: boolean[];
  readonly keys: string[];

  constructor(
    readonly returns: readonly unknown[],
    readonly adjustments: NonNullable<ReplayOutput['adjustments']>,
    readonly clawbacks: NonNullable<ReplayOutput['clawbacks']>,
    readonly errors: NonNullable<ReplayOutput['returnErrors']>,
  ) {
    this.keys = returns.map((item, i) => {
      const id = isRecord(item) && typeof item.return_id === 'string' ? item.return_id.trim() : '';
      return id === '' ? `#${i}` : id;
    });
    // Whether a return reads does not depend on the zone: only its shape is read here.
    this.reads = returns.map((item, i) => parseReturn(item, i, 'UTC').ok);
  }

  /** Whether the return at `i` reads (check 1). */
  readsAt(i: number): boolean {
    return this.reads[i] === true;
  }

  private isStored(key: string): boolean {
    return (this.stored.get(key) ?? 0) > 0;
  }

  /**
   * The outcomes the return at `i` can have, in the order to try them: the head of each list
   * that names it and fits the order of checks (docs/concepts.md, Returns).
   */
  options(i: number): Step[] {
    const key = this.keys[i] as string;
    const reads = this.readsAt(i);
    const stored = this.isStored(key);
    const out: Step[] = [];
    const err = this.errors[this.e];
    if (err !== undefined && (err.key === key || err.key === `#${i}`)) {
      const fits = !reads
        ? err.code === 'invalid_return'
        : stored
          ? err.code === 'duplicate_return'
          : err.code !== 'duplicate_return';
      if (fits) out.push('error');
    }
    if (reads && !stored) {
      if (this.adjustments[this.a]?.return_id === key) out.push('adjustment');
      if (this.clawbacks[this.c]?.return_id === key) out.push('clawback');
    }
    return out;
  }

  /** Takes (`by` 1) or gives back (`by` -1) the outcome of the return at `i`. */
  move(i: number, step: Step, by: 1 | -1): void {
    const key = this.keys[i] as string;
    let stores = true;
    if (step === 'error') {
      if (by === -1) this.e--;
      stores = STORED_ERRORS.has((this.errors[this.e] as { code: string }).code);
      if (by === 1) this.e++;
    } else if (step === 'adjustment') this.a += by;
    else this.c += by;
    if (stores) this.stored.set(key, (this.stored.get(key) ?? 0) + by);
  }

  /** The entry of the return at `i`, its outcome taken last. */
  entry(i: number, step: Step): WalkedReturn {
    const item = this.returns[i];
    const key = this.keys[i] as string;
    if (step === 'adjustment') {
      return { item, key, adjustment: this.adjustments[this.a - 1], stored: true };
    }
    if (step === 'clawback')
      return { item, key, clawback: this.clawbacks[this.c - 1], stored: true };
    const code = (this.errors[this.e - 1] as { code: string }).code;
    return { item, key, code, stored: STORED_ERRORS.has(code) };
  }
}

/**
 * Pairs each return of the input with its outcome: the result lists adjustments, clawbacks and
 * return errors apart, each in the order decided, which is the returns' own order. A reused id
 * can make the heads of two lists name one return (the first copy rejected and a later one
 * stored, or the reverse): the walk then tries one and goes back to try the other when the rest
 * cannot be paired, so a right result always pairs.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @returns one entry per return, in order
 * @throws Error when a return has no outcome or an outcome no return
 */
export function walkReturns(input: ReplayInput, result: ReplayOutput): WalkedReturn[] {
  const walk = new Walk(
    input.returns ?? [],
    result.adjustments ?? [],
    result.clawbacks ?? [],
    result.returnErrors ?? [],
  );
  const n = walk.returns.length;
  const chosen: Step[] = [];
  const untried: Step[][] = [];
  const out: WalkedReturn[] = [];
  // Positions (return, adjustments read, clawbacks read) from which no pairing exists.
  const dead = new Set<string>();
  let stuck = -1;
  const back = (): boolean => {
    for (;;) {
      const i = chosen.length - 1;
      if (i < 0) return false;
      walk.move(i, chosen[i] as Step, -1);
      out.pop();
      const next = (untried[i] as Step[]).shift();
      if (next !== undefined) {
        chosen[i] = next;
        walk.move(i, next, 1);
        out.push(walk.entry(i, next));
        return true;
      }
      dead.add(`${i},${walk.a},${walk.c}`);
      chosen.pop();
      untried.pop();
    }
  };
  for (;;) {
    const i = chosen.length;
    const left =
      walk.adjustments.length -
      walk.a +
      walk.clawbacks.length -
      walk.c +
      walk.errors.length -
      walk.e;
    if (i === n && left === 0) return out;
    const options = i === n || dead.has(`${i},${walk.a},${walk.c}`) ? [] : walk.options(i);
    const first = options.shift();
    if (first === undefined) {
      if (i > stuck) stuck = i;
      if (i < n) dead.add(`${i},${walk.a},${walk.c}`);
      if (back()) continue;
      break;
    }
    chosen.push(first);
    untried.push(options);
    walk.move(i, first, 1);
    out.push(walk.entry(i, first));
  }
  if (stuck < n) throw new Error(noOutcome(walk, stuck));
  const outcomes = walk.adjustments.length + walk.clawbacks.length + walk.errors.length;
  throw new Error(`${outcomes - n} return outcome(s) of no return`);
}

/** Says why the return at `i` could be paired with no outcome. */
function noOutcome(walk: Walk, i: number): string {
  const key = walk.keys[i] as string;
  const named = walk.errors.find((e) => e.key === key || e.key === `#${i}`);
  const why =
    named === undefined
      ? ''
      : walk.readsAt(i)
        ? ` (returnErrors gives it ${named.code} where no outcome of that kind fits the order of checks)`
        : ` (it does not read, so its outcome is invalid_return, but returnErrors gives it ${named.code})`;
  return `return ${key} (#${i}) has no outcome in adjustments, clawbacks or returnErrors${why}`;
}
