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
  readonly transactions = new Map<string, TransactionRecord>();
  /** Stored transactions by customer, then merchant key: what lookback queries read. */
  private readonly purchasesIndex = new Map<string, Map<string, TransactionRecord[]>>();
  readonly payments = new Map<string, PaymentRecord>();
  /** Payments by payment day; each bucket sorted by transaction id when `unsorted` lacks it. */
  private readonly paymentDays = new Map<string, PaymentRecord[]>();
  private readonly unsorted = new Set<string>();
  private sortedDays: string[] | undefined = [];
  readonly outbox: StoredOutboxEvent[] = [];

  addTransaction(t: TransactionRecord): void {
    this.transactions.set(t.transaction_id, t);
    let byMerchant = this.purchasesIndex.get(t.customer_id);
    if (byMerchant === undefined) {
      byMerchant = new Map();
      this.purchasesIndex.set(t.customer_id, byMerchant);
    }
    const list = byMerchant.get(t.merchant_key);
    if (list === undefined) byMerchant.set(t.merchant_key, [t]);
    else list.push(t);
  }

  purchases(query: PurchaseQuery, out: TransactionRecord[]): void {
    for (const { customerId, merchantKey } of query.pairs) {
      const list = this.purchasesIndex.get(customerId)?.get(merchantKey);
      if (list === undefined) continue;
      for (const t of list) if (t.day >= query.fromDay) out.push(t);
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

  /** Payments in listing order, with `extra` (uncommitted ones of a unit of work) merged in. */
  listPayments(query: PaymentQuery, extra: readonly PaymentRecord[]): PaymentPage {
    if (extra.length > 0) {
      const all: PaymentRecord[] = extra.filter(
        (p) => p.payment_date >= query.from && p.payment_date <= query.to,
      );
      this.collect(query.from, query.to, 0, Number.POSITIVE_INFINITY, all);
      all.sort((a, b) => compareText(a.payment_date, b.payment_date) || byTransactionId(a, b));
      return { total: all.length, items: all.slice(query.offset, query.offset + query.limit) };
    }
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
