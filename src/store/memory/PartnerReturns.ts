import { ExactMoney } from '../../model/money.js';
import type { ReturnRecord } from '../records.js';
import type { ReturnedTotal } from '../Store.js';

/** What one transaction has had returned, moved by every return stored of it. */
interface Returned {
  amount: InstanceType<typeof ExactMoney>;
  count: number;
}

/**
 * One partner's returns in the memory store: by return id, by transaction, and the running total
 * of each transaction's returns (so that reading it costs the same however many were stored).
 */
export class PartnerReturns {
  private readonly byId = new Map<string, ReturnRecord>();
  private readonly byTransaction = new Map<string, ReturnRecord[]>();
  private readonly totals = new Map<string, Returned>();

  /** Whether a return with this id is stored. */
  has(returnId: string): boolean {
    return this.byId.has(returnId);
  }

  /** The stored returns of a transaction, in the order stored. */
  of(transactionId: string): readonly ReturnRecord[] | undefined {
    return this.byTransaction.get(transactionId);
  }

  /** What a transaction has had returned; `undefined` when nothing. */
  total(transactionId: string): ReturnedTotal | undefined {
    const t = this.totals.get(transactionId);
    if (t === undefined) return undefined;
    return { transaction_id: transactionId, amount: t.amount.toFixed(), count: t.count };
  }

  /** How many of `returns` are not stored yet (their ids are distinct). */
  countNew(returns: readonly ReturnRecord[]): number {
    let n = 0;
    for (const r of returns) if (!this.byId.has(r.return_id)) n++;
    return n;
  }

  /** Stores each return whose id is not stored yet; returns those it stored. */
  add(returns: readonly ReturnRecord[]): ReturnRecord[] {
    const added: ReturnRecord[] = [];
    for (const r of returns) {
      if (this.byId.has(r.return_id)) continue;
      this.byId.set(r.return_id, r);
      const list = this.byTransaction.get(r.transaction_id);
      if (list === undefined) this.byTransaction.set(r.transaction_id, [r]);
      else list.push(r);
      this.move(r, 1);
      added.push(r);
    }
    return added;
  }

  /** Takes back an `add` that stored `added`: they are the latest of their lists. */
  remove(added: readonly ReturnRecord[]): void {
    for (let i = added.length - 1; i >= 0; i--) {
      const r = added[i] as ReturnRecord;
      this.byId.delete(r.return_id);
      const list = this.byTransaction.get(r.transaction_id) as ReturnRecord[];
      list.pop();
      if (list.length === 0) this.byTransaction.delete(r.transaction_id);
      this.move(r, -1);
    }
  }

  /** Moves a transaction's running total by one return, stored (1) or taken back (−1). */
  private move(r: ReturnRecord, sign: 1 | -1): void {
    const t = this.totals.get(r.transaction_id) ?? { amount: new ExactMoney(0), count: 0 };
    t.amount = sign === 1 ? t.amount.plus(r.amount) : t.amount.minus(r.amount);
    t.count += sign;
    if (t.count === 0) this.totals.delete(r.transaction_id);
    else this.totals.set(r.transaction_id, t);
  }
}
