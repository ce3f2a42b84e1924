/**
 * The order `replay` decides transactions and returns in (docs/replay.md, Returns), written out
 * for the properties: the next return goes first when its arrival (its `reported_at`, else its
 * date-time) is strictly before the next transaction's date-time, and one whose date-time cannot
 * be read goes before every other.
 */
import { parseDateTime, type WallClock } from '../../src/model/dateTime.js';

/** A run of consecutive transactions or returns, and the index of its first item in its list. */
export interface Run {
  readonly kind: 'transactions' | 'returns';
  readonly items: unknown[];
  readonly offset: number;
}

function dateOf(item: unknown, timeZone: string, field = 'date'): WallClock | undefined {
  const date = (item as Record<string, unknown> | null)?.[field];
  if (typeof date !== 'string') return undefined;
  const w = parseDateTime(date, timeZone);
  return typeof w === 'string' ? undefined : w;
}

/** When a return arrived: its `reported_at`, else its date. */
export function arrivalOf(item: unknown, timeZone: string): WallClock | undefined {
  const reported = (item as { reported_at?: unknown } | null)?.reported_at;
  return dateOf(item, timeZone, reported === undefined ? 'date' : 'reported_at');
}

/** -1 / 0 / 1 as `a` is before, at or after `b`; an unreadable one is before every other. */
function compare(a: WallClock | undefined, b: WallClock | undefined): number {
  const ka = a === undefined ? Number.NEGATIVE_INFINITY : a.seconds;
  const kb = b === undefined ? Number.NEGATIVE_INFINITY : b.seconds;
  if (ka !== kb) return ka < kb ? -1 : 1;
  if (a === undefined || b === undefined) return 0;
  return Math.sign(a.nanos - b.nanos);
}

/**
 * The two lists merged, as runs, each run cut again at the given positions (so that requests of
 * any size are tried).
 */
export function mergeOrder(
  transactions: readonly unknown[],
  returns: readonly unknown[],
  timeZone: string,
  cuts: readonly number[] = [],
): Run[] {
  const steps: { kind: Run['kind']; item: unknown; index: number }[] = [];
  let t = 0;
  let r = 0;
  while (t < transactions.length || r < returns.length) {
    const returnFirst =
      r < returns.length &&
      (t >= transactions.length ||
        compare(arrivalOf(returns[r], timeZone), dateOf(transactions[t], timeZone)) < 0);
    if (returnFirst) steps.push({ kind: 'returns', item: returns[r], index: r++ });
    else steps.push({ kind: 'transactions', item: transactions[t], index: t++ });
  }
  const cutAt = new Set(cuts.map((c) => c % (steps.length + 1)));
  const runs: Run[] = [];
  steps.forEach((s, i) => {
    const last = runs.at(-1);
    if (last !== undefined && last.kind === s.kind && !cutAt.has(i)) last.items.push(s.item);
    else runs.push({ kind: s.kind, items: [s.item], offset: s.index });
  });
  return runs;
}
