import { TransactionIdSet } from '../../core/idSet.js';
import type { CustomerRecord, PaymentRecord, TransactionRecord } from '../records.js';
import type { PaymentPage, PaymentQuery, PurchaseQuery, StoredOutboxEvent } from '../Store.js';

/** Code-unit order, the listing order of DESIGN.md §3 (not locale order). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byTransactionId(a: PaymentRecord, b: PaymentRecord): number {
  return compareText(a.transaction_id, b.transaction_id);
}

/** Index of the first element of the sorted `days` that is not before `day`. */
function lowerBound(days: readonly string[], day: string): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((days[mid] as string) < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One partner's committed data in the memory store, with the indexes its queries need.
 * @internal
 */
export class _PartnerData {
  readonly customers = new Map<string, CustomerRecord>();
  /**
   * Ids of the stored transactions. Records are reached through `purchasesIndex`; nothing looks
   * one up by id, so a set of ids is enough, and `TransactionIdSet` answers the two lookups of
   * every submitted transaction (`existing`, then `insert`) faster than a `Map` at a million ids.
   */
  readonly transactionIds = new TransactionIdSet();
  /**
   * Stored transactions by customer: what lookback queries read. One list per customer, filtered
   * by merchant key when read: a customer has few transactions, and a map per customer cost more
   * to build for every stored transaction than the filter costs per query.
   */
  private readonly purchasesIndex = new Map<string, TransactionRecord[]>();
  readonly payments = new Map<string, PaymentRecord>();
  /** Payments by payment day; each bucket sorted by transaction id when `unsorted` lacks it. */
  private readonly paymentDays = new Map<string, PaymentRecord[]>();
  private readonly unsorted = new Set<string>();
  private sortedDays: string[] | undefined = [];
  readonly outbox: StoredOutboxEvent[] = [];

  /** Stores each transaction whose id is not stored yet; pushes those it stored to `out`. */
  addTransactions(transactions: readonly TransactionRecord[], out: TransactionRecord[]): void {
    for (const t of transactions) {
      if (!this.transactionIds.add(t.transaction_id)) continue;
      const list = this.purchasesIndex.get(t.customer_id);
      if (list === undefined) this.purchasesIndex.set(t.customer_id, [t]);
      else list.push(t);
      out.push(t);
    }
  }

  /**
   * Takes back an `addTransactions` that stored `added`, leaving `idsBefore` ids. Undo runs
   * newest first, so these are the latest additions to every list and to the id set.
   */
  removeTransactions(added: readonly TransactionRecord[], idsBefore: number): void {
    for (let i = added.length - 1; i >= 0; i--) {
      const t = added[i] as TransactionRecord;
      const list = this.purchasesIndex.get(t.customer_id) as TransactionRecord[];
      list.pop();
      if (list.length === 0) this.purchasesIndex.delete(t.customer_id);
    }
    this.transactionIds.truncate(idsBefore);
  }

  purchases(query: PurchaseQuery, out: TransactionRecord[]): void {
    for (const { customerId, merchantKey } of query.pairs) {
      const list = this.purchasesIndex.get(customerId);
      if (list === undefined) continue;
      for (const t of list) {
        if (t.merchant_key === merchantKey && t.day >= query.fromDay) out.push(t);
      }
    }
  }

  addPayment(p: PaymentRecord): void {
    this.payments.set(p.transaction_id, p);
    const bucket = this.paymentDays.get(p.payment_date);
    if (bucket === undefined) {
      this.paymentDays.set(p.payment_date, [p]);
      this.sortedDays = undefined;
    } else {
      bucket.push(p);
      this.unsorted.add(p.payment_date);
    }
  }

  /** Takes back an `addPayment` (a bucket may have been sorted since, so it is searched). */
  removePayment(p: PaymentRecord): void {
    this.payments.delete(p.transaction_id);
    const bucket = this.paymentDays.get(p.payment_date) as PaymentRecord[];
    bucket.splice(bucket.lastIndexOf(p), 1);
    if (bucket.length === 0) {
      this.paymentDays.delete(p.payment_date);
      this.unsorted.delete(p.payment_date);
      this.sortedDays = undefined;
    }
  }

  /** Payments in listing order. */
  listPayments(query: PaymentQuery): PaymentPage {
    const items: PaymentRecord[] = [];
    const total = this.collect(query.from, query.to, query.offset, query.limit, items);
    return { total, items };
  }

  /** Walks the days of `[from, to]` in order; returns the count, pushes the page to `out`. */
  private collect(
    from: string,
    to: string,
    offset: number,
    limit: number,
    out: PaymentRecord[],
  ): number {
    if (this.sortedDays === undefined) {
      this.sortedDays = [...this.paymentDays.keys()].sort(compareText);
    }
    const days = this.sortedDays;
    let total = 0;
    for (let i = lowerBound(days, from); i < days.length; i++) {
      const day = days[i] as string;
      if (day > to) break;
      const bucket = this.paymentDays.get(day) as PaymentRecord[];
      const start = Math.max(0, offset - total);
      const end = Math.min(bucket.length, offset + limit - total);
      if (start < end) {
        if (this.unsorted.delete(day)) bucket.sort(byTransactionId);
        for (let j = start; j < end; j++) out.push(bucket[j] as PaymentRecord);
      }
      total += bucket.length;
    }
    return total;
  }
}
