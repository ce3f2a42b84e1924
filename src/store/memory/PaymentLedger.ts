import { compareText } from '../../model/compareText.js';
import { ExactMoney } from '../../model/money.js';
import type { ClawbackRecord, PaymentChangeRecord, PaymentRecord } from '../records.js';
import type { ClawbackPage, PaymentQuery } from '../Store.js';

/** What a memory store keeps of one payment beyond its record. */
interface Kept {
  clawedBack: InstanceType<typeof ExactMoney>;
  confirmedEvent: string | null;
  readonly history: PaymentChangeRecord[];
}

/**
 * One partner's payments as finance reads them in a memory store (docs/stores.md): each payment's
 * history and clawed-back total, whether it is confirmed, the clawbacks by day for listings, and
 * the payments not confirmed yet by payment day. Every change returns how to take it back.
 */
export class PaymentLedger {
  private readonly kept = new Map<string, Kept>();
  private readonly clawbackIds = new Set<string>();
  /** Clawbacks by return day; a bucket sorted by return id when `unsorted` lacks it. */
  private readonly clawbackDays = new Map<string, ClawbackRecord[]>();
  private readonly unsorted = new Set<string>();
  /** Payments not confirmed yet, by payment day, then transaction id. */
  private readonly due = new Map<string, Set<string>>();

  /** What the store keeps of a payment beyond its record. */
  state(transactionId: string): { clawedBack: string; confirmedEvent: string | null } {
    const k = this.kept.get(transactionId);
    return {
      clawedBack: k === undefined ? '0' : k.clawedBack.toFixed(),
      confirmedEvent: k?.confirmedEvent ?? null,
    };
  }

  /** Whether a payment is confirmed. */
  confirmed(transactionId: string): boolean {
    return this.kept.get(transactionId)?.confirmedEvent != null;
  }

  /** A new payment: not confirmed, no history. */
  added(p: PaymentRecord): () => void {
    this.kept.set(p.transaction_id, {
      clawedBack: new ExactMoney(0),
      confirmedEvent: null,
      history: [],
    });
    this.dueSet(p.payment_date).add(p.transaction_id);
    return () => {
      this.kept.delete(p.transaction_id);
      this.due.get(p.payment_date)?.delete(p.transaction_id);
    };
  }

  /** The history of a payment. */
  history(transactionId: string): readonly PaymentChangeRecord[] {
    return this.kept.get(transactionId)?.history ?? [];
  }

  /** Whether a clawback of this return is recorded. */
  hasClawback(returnId: string): boolean {
    return this.clawbackIds.has(returnId);
  }

  /** Appends history entries (their payments exist); returns how to take them back. */
  record(changes: readonly PaymentChangeRecord[]): () => void {
    const undo: (() => void)[] = [];
    for (const c of changes) {
      const k = this.kept.get(c.transaction_id) as Kept;
      k.history.push(c);
      const before = k.clawedBack;
      let listed: ClawbackRecord | undefined;
      if (c.kind === 'clawback') {
        k.clawedBack = before.plus(c.amount);
        this.clawbackIds.add(c.return_id);
        // The listing gives clawback records, without the history's `kind`.
        const { kind: _, ...record } = c;
        listed = record;
        this.listClawback(listed);
      }
      undo.push(() => {
        k.history.pop();
        k.clawedBack = before;
        if (listed !== undefined) {
          this.clawbackIds.delete(listed.return_id);
          this.unlistClawback(listed);
        }
      });
    }
    return () => {
      for (let i = undo.length - 1; i >= 0; i--) (undo[i] as () => void)();
    };
  }

  /** A page of clawbacks in listing order: the days of `[from, to]` walked in order. */
  clawbacks(query: PaymentQuery): ClawbackPage {
    const { from, to, offset, limit } = query;
    const days = [...this.clawbackDays.keys()]
      .filter((d) => d >= from && d <= to)
      .sort(compareText);
    const items: ClawbackRecord[] = [];
    let total = 0;
    for (const day of days) {
      const bucket = this.clawbackDays.get(day) as ClawbackRecord[];
      if (this.unsorted.delete(day)) bucket.sort((a, b) => compareText(a.return_id, b.return_id));
      const start = Math.max(0, offset - total);
      const end = Math.min(bucket.length, offset + limit - total);
      for (let j = start; j < end; j++) items.push(bucket[j] as ClawbackRecord);
      total += bucket.length;
    }
    return { total, items };
  }

  /**
   * The payments due on the first payment day on or before `through` that has any not confirmed,
   * in transaction-id order, at most `limit`, those whose cashback is 0 left out for good.
   */
  dueOn(
    through: string,
    limit: number,
    payment: (transactionId: string) => PaymentRecord | undefined,
  ): { day: string; ids: string[] } | undefined {
    for (const day of [...this.due.keys()].filter((d) => d <= through).sort(compareText)) {
      const set = this.due.get(day) as Set<string>;
      const ids: string[] = [];
      for (const id of [...set].sort(compareText)) {
        const p = payment(id);
        // A cancelled payment is never confirmed, and its cashback never rises again.
        if (p === undefined || new ExactMoney(p.cashback_amount).isZero()) set.delete(id);
        else if (ids.length < limit) ids.push(id);
      }
      if (set.size === 0) this.due.delete(day);
      if (ids.length > 0) return { day, ids };
    }
    return undefined;
  }

  /** Marks payments of one day confirmed by an event; returns how to take it back. */
  confirm(day: string, ids: readonly string[], eventId: string): () => void {
    const set = this.dueSet(day);
    for (const id of ids) {
      (this.kept.get(id) as Kept).confirmedEvent = eventId;
      set.delete(id);
    }
    return () => {
      const back = this.dueSet(day);
      for (const id of ids) {
        (this.kept.get(id) as Kept).confirmedEvent = null;
        back.add(id);
      }
    };
  }

  private dueSet(day: string): Set<string> {
    let set = this.due.get(day);
    if (set === undefined) {
      set = new Set();
      this.due.set(day, set);
    }
    return set;
  }

  private listClawback(c: ClawbackRecord): void {
    const bucket = this.clawbackDays.get(c.day);
    if (bucket === undefined) this.clawbackDays.set(c.day, [c]);
    else {
      bucket.push(c);
      this.unsorted.add(c.day);
    }
  }

  private unlistClawback(c: ClawbackRecord): void {
    const bucket = this.clawbackDays.get(c.day) as ClawbackRecord[];
    bucket.splice(bucket.lastIndexOf(c), 1);
    if (bucket.length === 0) {
      this.clawbackDays.delete(c.day);
      this.unsorted.delete(c.day);
    }
  }
}
