import type { ReturnRecord } from '../records.js';

/** One partner's returns in the memory store: by return id, and by transaction. */
export class PartnerReturns {
  private readonly byId = new Map<string, ReturnRecord>();
  private readonly byTransaction = new Map<string, ReturnRecord[]>();

  /** Whether a return with this id is stored. */
  has(returnId: string): boolean {
    return this.byId.has(returnId);
  }

  /** The stored returns of a transaction, in the order stored. */
  of(transactionId: string): readonly ReturnRecord[] | undefined {
    return this.byTransaction.get(transactionId);
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
    }
  }
}
