import type { ReplayInput, ReplayOutput } from './types.js';

/**
 * The key of an item's outcome (docs/concepts.md, Outcomes and error codes): its trimmed id, or
 * `#<index>` without one. Restated here rather than imported, so that the invariant checks the
 * engine's keys against the rule instead of against the engine's own code.
 */
function keyOf(item: unknown, index: number): string {
  const raw = (item as { transaction_id?: unknown } | null)?.transaction_id;
  const id = typeof raw === 'string' ? raw.trim() : '';
  return id.length > 0 && id.length <= 128 ? id : `#${index}`;
}

/**
 * Checks that every submitted transaction has exactly one outcome (docs/concepts.md, Outcomes and error codes): the payments and
 * the errors, both in transaction order, interleave into one outcome per item, each naming that
 * item's key, and the summary counts every item once.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @throws Error naming the first item without an outcome, or the surplus
 * @example
 * ```ts
 * invariants.oneOutcomePerTransaction(scenario, replay(scenario));
 * ```
 * @public
 */
export function oneOutcomePerTransaction(input: ReplayInput, result: ReplayOutput): void {
  const { payments, errors } = result;
  const n = input.transactions.length;
  if (payments.length + errors.length !== n) {
    throw new Error(
      `${n} transactions submitted but ${payments.length} payments + ${errors.length} errors returned`,
    );
  }
  const counted = result.summary?.transactions ?? n;
  if (counted !== n) {
    throw new Error(`${n} transactions submitted but the summary counts ${counted}`);
  }
  // Payments taken so far, over every way of laying the outcomes out in order (few: only items
  // that share a key leave a choice).
  let reachable = new Set([0]);
  for (let i = 0; i < n; i++) {
    const key = keyOf(input.transactions[i], i);
    const next = new Set<number>();
    for (const p of reachable) {
      if (payments[p]?.transaction_id === key) next.add(p + 1);
      if (errors[i - p]?.key === key) next.add(p);
    }
    if (next.size === 0) {
      const p = Math.max(...reachable);
      const pay = payments[p]?.transaction_id ?? 'none';
      const err = errors[i - p];
      throw new Error(
        `transaction #${i} (key '${key}') has no outcome in order: next payment is for '${pay}', next error is ${err === undefined ? 'none' : `'${err.key}' (${err.code})`}`,
      );
    }
    reachable = next;
  }
}
