import { ExactMoney, parseAmount } from '../../model/money.js';
import { isRecord } from '../../rules/_internals/isRecord.js';
import { walkReturns } from '../_internals/returnOutcomes.js';
import type { ReplayInput, ReplayOutput } from './types.js';

type Decimal = InstanceType<typeof ExactMoney>;

/** The largest amount that reads among the transactions with each id, history included. */
function amounts(input: ReplayInput): Map<string, Decimal> {
  const byId = new Map<string, Decimal>();
  for (const t of [...(input.history ?? []), ...input.transactions]) {
    if (!isRecord(t) || typeof t.transaction_id !== 'string') continue;
    const id = t.transaction_id.trim();
    const a = parseAmount(t.amount);
    if (typeof a !== 'object') continue;
    const before = byId.get(id);
    if (before === undefined || before.lt(a.text)) byId.set(id, new ExactMoney(a.text));
  }
  return byId;
}

/**
 * Checks the returns against the transactions (docs/concepts.md, Returns): every return has
 * exactly one outcome (an adjustment or a return error, in the returns' order), and the returns
 * stored of a transaction (adjusted, `not_paid`, `after_warranty`) never add up to more than its
 * amount; one without `amount` takes what was left, so something must have been left. Which copy
 * of a reused transaction id was stored is not read: the bound is the largest amount among them.
 * @param input - what `replay` was given
 * @param result - what it returned
 * @throws Error naming the first return that breaks it
 * @example
 * ```ts
 * invariants.returnedWithinAmount(scenario, replay(scenario));
 * ```
 * @public
 */
export function returnedWithinAmount(input: ReplayInput, result: ReplayOutput): void {
  const total = amounts(input);
  const returned = new Map<string, Decimal>();
  for (const r of walkReturns(input, result)) {
    if (!r.stored || !isRecord(r.item) || typeof r.item.transaction_id !== 'string') continue;
    const id = r.item.transaction_id.trim();
    const amount = total.get(id);
    const fail = (why: string) => new Error(`return ${r.key} of ${id}: ${why}`);
    if (amount === undefined) throw fail('stored, but no transaction has that id');
    const before = returned.get(id) ?? new ExactMoney(0);
    if (r.item.amount === undefined) {
      if (before.gte(amount)) throw fail('stored without amount, but nothing was left');
      returned.set(id, amount);
      continue;
    }
    const given = parseAmount(r.item.amount);
    if (typeof given !== 'object') throw fail('stored with an amount that does not read');
    const after = before.plus(given.text);
    if (after.gt(amount)) {
      throw fail(`returns add up to ${after.toFixed()}, more than the amount ${amount.toFixed()}`);
    }
    returned.set(id, after);
  }
}
