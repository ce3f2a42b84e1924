import { ExactMoney } from '../../model/money.js';
import type { ReplayInput, ReplayOutput } from './types.js';

/**
 * Checks the summary's cashback net of returns (docs/replay.md, Returns): `summary.returns
 * .netCashback` is the sum of the payments' current cashback, each payment's last adjustment
 * replacing its cashback. A result without `summary.returns` passes.
 * @param _input - what `replay` was given (not read)
 * @param result - what it returned
 * @throws Error giving both sums when they differ
 * @example
 * ```ts
 * invariants.netCashbackIsSumOfPayments(scenario, replay(scenario));
 * ```
 * @public
 */
export function netCashbackIsSumOfPayments(_input: ReplayInput, result: ReplayOutput): void {
  const net = result.summary?.returns?.netCashback;
  if (net === undefined) return;
  const current = new Map(result.payments.map((p) => [p.transaction_id, p.cashback]));
  for (const a of result.adjustments ?? []) current.set(a.transaction_id, a.cashback);
  let sum = new ExactMoney(0);
  for (const c of current.values()) sum = sum.plus(String(c));
  if (!sum.eq(net)) {
    throw new Error(`netCashback ${net} is not the sum of the current payments ${sum.toFixed()}`);
  }
}
