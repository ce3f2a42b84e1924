import { compareText } from '../../model/compareText.js';
import { TransactionIdSet } from '../../model/TransactionIdSet.js';
import type {
  ActivationRecord,
  CustomerRecord,
  PaymentRecord,
  TransactionRecord,
} from '../records.js';
import type { PaymentPage, PaymentQuery, PurchaseQuery, StoredOutboxEvent } from '../Store.js';
import { PartnerReturns } from './PartnerReturns.js';
import { PaymentLedger } from './PaymentLedger.js';

function byTransactionId(a: PaymentRecord, b: PaymentRecord): number {
  return compareText(a.transaction_id, b.transaction_id);
}

/** Whether a payment is listed: its cashback is not 0 (returns may have cancelled it). */
function listed(p: PaymentRecord): boolean {
  return !/^0*(\.0*)?$/.test(p.cashback_amount);
}

/** Where an outbox event's delivery stands. */
export interface DeliveryState {
  state: 'pending' | 'delivered' | 'dead';
  attempts: number;
  /** When it is due, in milliseconds since the epoch (a claim moves it to its lease's end). */
  due: number;
  lease: string | undefined;
  error: string | undefined;
  finishedAt: number | undefined;
}

/** Appends `t` to its customer's list. */
function indexIn(customers: Map<string, TransactionRecord[]>, t: TransactionRecord): void {
  const list = customers.get(t.customer_id);
  if (list === undefined) customers.set(t.customer_id, [t]);
  else list.push(t);
}

/** Takes back the last `indexIn` of `t` (its list's last record). */
function unindex(customers: Map<string, TransactionRecord[]>, t: TransactionRecord): void {
  const list = customers.get(t.customer_id) as TransactionRecord[];
  list.pop();
  if (list.length === 0) customers.delete(t.customer_id);
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

/** One partner's data in the memory store, with the indexes its queries need. */
export class PartnerData {
  readonly customers = new Map<string, CustomerRecord>();
  /** Activations by customer, then offer. */
  readonly activations = new Map<string, Map<number, ActivationRecord>>();
  /**
   * Ids of the stored transactions. Records are reached through `stored` and `byMerchant`;
   * nothing looks one up by id, so a set of ids is enough, and `TransactionIdSet` answers the two
   * lookups of every submitted transaction (`existing`, then `insert`) faster than a `Map`.
   */
  readonly transactionIds = new TransactionIdSet();
  /** Every stored transaction, in the order stored: what a merchant key's index is built from. */
  private readonly stored: TransactionRecord[] = [];
  /**
   * What lookback queries read: for each merchant key asked for so far, its transactions by
   * customer, each list in the order stored. A key is indexed the first time a query names it
   * (one pass over `stored`), and from then on as transactions arrive. Only merchants whose
   * offers read history are ever asked for, so most transactions are never indexed
   * (docs/stores.md, the memory store).
   */
  private readonly byMerchant = new Map<string, Map<string, TransactionRecord[]>>();
  /**
   * Every stored transaction by customer, each list in the order stored: what a query of whole
   * customers reads (offers scoped to many merchants). Built the first time a query names
   * customers (one pass over `stored`), then kept as transactions arrive; never without such
   * offers.
   */
  private byCustomer: Map<string, TransactionRecord[]> | undefined;
  readonly payments = new Map<string, PaymentRecord>();
  readonly returns = new PartnerReturns();
  /** Payments' histories, clawbacks and confirmations. */
  readonly ledger = new PaymentLedger();
  /** Payments by payment day; each bucket sorted by transaction id when `unsorted` lacks it. */
  private readonly paymentDays = new Map<string, PaymentRecord[]>();
  private readonly unsorted = new Set<string>();
  private sortedDays: string[] | undefined = [];
  readonly outbox: StoredOutboxEvent[] = [];
  /** Delivery state of the outbox events that have one; an event without one is pending, due. */
  readonly deliveries = new Map<number, DeliveryState>();
  /** Index in `outbox` before which every event is delivered or dead. */
  deliveryCursor = 0;

  /** The stored transaction with this id (`stored` is in the id set's insertion order). */
  transaction(id: string): TransactionRecord | undefined {
    const i = this.transactionIds.indexOf(id);
    return i < 0 ? undefined : this.stored[i];
  }

  /** How many of `transactions` are not stored yet (their ids are distinct). */
  countNewTransactions(transactions: readonly TransactionRecord[]): number {
    let n = 0;
    for (const t of transactions) if (!this.transactionIds.has(t.transaction_id)) n++;
    return n;
  }

  /** Stores each transaction whose id is not stored yet; returns those it stored. */
  addTransactions(transactions: readonly TransactionRecord[]): TransactionRecord[] {
    const byMerchant = this.byMerchant;
    const added: TransactionRecord[] = [];
    for (const t of transactions) {
      if (!this.transactionIds.add(t.transaction_id)) continue;
      this.stored.push(t);
      if (byMerchant.size > 0) {
        const customers = byMerchant.get(t.merchant_key);
        if (customers !== undefined) indexIn(customers, t);
      }
      if (this.byCustomer !== undefined) indexIn(this.byCustomer, t);
      added.push(t);
    }
    return added;
  }

  /**
   * Takes back an `addTransactions` that stored `added`, leaving `idsBefore` ids. Undo runs
   * newest first, so these are the latest additions to `stored`, to the id set and to every
   * index list (a key indexed since was built from `stored` in order, so they are last there too).
   */
  removeTransactions(added: readonly TransactionRecord[], idsBefore: number): void {
    for (let i = added.length - 1; i >= 0; i--) {
      const t = added[i] as TransactionRecord;
      this.stored.pop();
      if (this.byCustomer !== undefined) unindex(this.byCustomer, t);
      const customers = this.byMerchant.get(t.merchant_key);
      if (customers !== undefined) unindex(customers, t);
    }
    this.transactionIds.truncate(idsBefore);
  }

  /** The stored transactions a lookback query asks for. */
  purchases(query: PurchaseQuery): TransactionRecord[] {
    const whole = new Set(query.customers);
    const pairs =
      whole.size === 0 ? query.pairs : query.pairs.filter((p) => !whole.has(p.customerId));
    this.index(pairs);
    const out: TransactionRecord[] = [];
    for (const { customerId, merchantKey } of pairs) {
      const list = this.byMerchant.get(merchantKey)?.get(customerId);
      if (list === undefined) continue;
      for (const t of list) if (t.day >= query.fromDay) out.push(t);
    }
    if (whole.size === 0) return out;
    const byCustomer = this.customerIndex();
    for (const customerId of whole) {
      for (const t of byCustomer.get(customerId) ?? []) if (t.day >= query.fromDay) out.push(t);
    }
    return out;
  }

  /** The index by customer, built on first use. */
  private customerIndex(): Map<string, TransactionRecord[]> {
    if (this.byCustomer === undefined) {
      this.byCustomer = new Map();
      for (const t of this.stored) indexIn(this.byCustomer, t);
    }
    return this.byCustomer;
  }

  /** Indexes the merchant keys of `pairs` not indexed yet, in one pass over `stored`. */
  private index(pairs: PurchaseQuery['pairs']): void {
    let fresh: Map<string, Map<string, TransactionRecord[]>> | undefined;
    for (const { merchantKey } of pairs) {
      if (this.byMerchant.has(merchantKey)) continue;
      fresh ??= new Map();
      const customers = new Map<string, TransactionRecord[]>();
      fresh.set(merchantKey, customers);
      this.byMerchant.set(merchantKey, customers);
    }
    if (fresh === undefined) return;
    for (const t of this.stored) {
      const customers = fresh.get(t.merchant_key);
      if (customers !== undefined) indexIn(customers, t);
    }
  }

  addPayment(p: PaymentRecord): void {
    this.payments.set(p.transaction_id, p);
    if (listed(p)) this.list(p);
  }

  /** Takes back an `addPayment`. */
  removePayment(p: PaymentRecord): void {
    this.payments.delete(p.transaction_id);
    if (listed(p)) this.unlist(p);
  }

  /** Puts `next` in place of the stored payment `old` of the same transaction. */
  replacePayment(old: PaymentRecord, next: PaymentRecord): void {
    this.payments.set(next.transaction_id, next);
    if (listed(old)) this.unlist(old);
    if (listed(next)) this.list(next);
  }

  /** Adds a payment to its day's listing bucket. */
  private list(p: PaymentRecord): void {
    const bucket = this.paymentDays.get(p.payment_date);
    if (bucket === undefined) {
      this.paymentDays.set(p.payment_date, [p]);
      this.sortedDays = undefined;
    } else {
      bucket.push(p);
      this.unsorted.add(p.payment_date);
    }
  }

  /** Takes a payment out of its day's bucket (which may have been sorted since: searched). */
  private unlist(p: PaymentRecord): void {
    const bucket = this.paymentDays.get(p.payment_date) as PaymentRecord[];
    bucket.splice(bucket.lastIndexOf(p), 1);
    if (bucket.length === 0) {
      this.paymentDays.delete(p.payment_date);
      this.unsorted.delete(p.payment_date);
      this.sortedDays = undefined;
    }
  }

  /** A page of payments in listing order: the days of `[from, to]` walked in order. */
  listPayments(query: PaymentQuery): PaymentPage {
    const { from, to, offset, limit } = query;
    if (this.sortedDays === undefined) {
      this.sortedDays = [...this.paymentDays.keys()].sort(compareText);
    }
    const days = this.sortedDays;
    const items: PaymentRecord[] = [];
    let total = 0;
    for (let i = lowerBound(days, from); i < days.length; i++) {
      const day = days[i] as string;
      if (day > to) break;
      const bucket = this.paymentDays.get(day) as PaymentRecord[];
      const start = Math.max(0, offset - total);
      const end = Math.min(bucket.length, offset + limit - total);
      if (start < end) {
        if (this.unsorted.delete(day)) bucket.sort(byTransactionId);
        for (let j = start; j < end; j++) items.push(bucket[j] as PaymentRecord);
      }
      total += bucket.length;
    }
    return { total, items };
  }
}
