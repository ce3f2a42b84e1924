import type { CustomerRecord, OfferRecord, TransactionRecord } from '../records.js';
import type {
  CustomerRepository,
  OfferRepository,
  OutboxRepository,
  PaymentRepository,
  Store,
  StoreSession,
  TransactionRepository,
} from '../Store.js';
import { _PartnerData } from './_PartnerData.js';

function requirePartner(partner: unknown): string {
  if (typeof partner !== 'string' || partner.length === 0) {
    throw new TypeError(`partner must be a non-empty string, got ${JSON.stringify(partner)}`);
  }
  return partner;
}

/** The data of a memory store. */
class Data {
  readonly offers = new Map<number, OfferRecord>();
  revision = 0;
  readonly partners = new Map<string, _PartnerData>();
  readonly eventIds = new Set<string>();

  partner(partner: string): _PartnerData | undefined {
    return this.partners.get(requirePartner(partner));
  }

  partnerForWrite(partner: string): _PartnerData {
    let data = this.partners.get(requirePartner(partner));
    if (data === undefined) {
      data = new _PartnerData();
      this.partners.set(partner, data);
    }
    return data;
  }
}

/**
 * The repositories seen from one unit of work. Writes go straight into the data, each call
 * logging how to take itself back; units run one at a time and reads on the store wait for the
 * open unit, so nobody else sees a write before its unit resolves. Once the unit has ended, every
 * call throws.
 */
class Session implements StoreSession {
  private ended = false;
  /** How to take back each write of the unit, oldest first. */
  readonly undo: (() => void)[] = [];

  constructor(private readonly db: Data) {}

  end(): void {
    this.ended = true;
  }

  rollback(): void {
    for (let i = this.undo.length - 1; i >= 0; i--) (this.undo[i] as () => void)();
    this.undo.length = 0;
  }

  private check(): void {
    if (this.ended) {
      throw new Error('This unit of work has ended; its session can no longer be used');
    }
  }

  readonly offers: OfferRepository = {
    list: async () => {
      this.check();
      return [...this.db.offers.values()].sort((a, b) => a.offer_id - b.offer_id);
    },
    revision: async () => {
      this.check();
      return this.db.revision;
    },
    upsert: async (offers) => {
      this.check();
      const ids = new Set<number>();
      for (const o of offers) {
        if (ids.has(o.offer_id)) throw new Error(`Offer ${o.offer_id} appears twice in one upsert`);
        ids.add(o.offer_id);
      }
      if (offers.length === 0) return;
      const db = this.db;
      const before = offers.map((o) => db.offers.get(o.offer_id));
      const revision = db.revision;
      for (const o of offers) db.offers.set(o.offer_id, o);
      db.revision++;
      this.undo.push(() => {
        offers.forEach((o, i) => {
          const old = before[i];
          if (old === undefined) db.offers.delete(o.offer_id);
          else db.offers.set(o.offer_id, old);
        });
        db.revision = revision;
      });
    },
  };

  readonly customers: CustomerRepository = {
    get: async (partner, ids) => {
      this.check();
      const data = this.db.partner(partner);
      const out: CustomerRecord[] = [];
      if (data === undefined) return out;
      for (const id of ids) {
        const c = data.customers.get(id);
        if (c !== undefined) out.push(c);
      }
      return out;
    },
    upsert: async (partner, customers) => {
      this.check();
      const data = this.db.partnerForWrite(partner);
      const before: (CustomerRecord | undefined)[] = new Array(customers.length);
      let added = 0;
      customers.forEach((c, i) => {
        const old = data.customers.get(c.customer_id);
        before[i] = old;
        if (old === undefined) added++;
        data.customers.set(c.customer_id, c);
      });
      this.undo.push(() => {
        for (let i = customers.length - 1; i >= 0; i--) {
          const c = customers[i] as CustomerRecord;
          const old = before[i];
          if (old === undefined) data.customers.delete(c.customer_id);
          else data.customers.set(c.customer_id, old);
        }
      });
      return { added, updated: customers.length - added };
    },
  };

  readonly transactions: TransactionRepository = {
    existing: async (partner, ids) => {
      this.check();
      const data = this.db.partner(partner);
      if (data === undefined) return [];
      const stored = data.transactionIds;
      return ids.filter((id) => stored.has(id));
    },
    insert: async (partner, transactions) => {
      this.check();
      const data = this.db.partnerForWrite(partner);
      const inserted: TransactionRecord[] = [];
      const idsBefore = data.transactionIds.size;
      data.addTransactions(transactions, inserted);
      this.undo.push(() => data.removeTransactions(inserted, idsBefore));
      return inserted.map((t) => t.transaction_id);
    },
    purchases: async (partner, query) => {
      this.check();
      const out: TransactionRecord[] = [];
      this.db.partner(partner)?.purchases(query, out);
      return out;
    },
  };

  readonly payments: PaymentRepository = {
    insert: async (partner, payments) => {
      this.check();
      const data = this.db.partnerForWrite(partner);
      const seen = new Set<string>();
      for (const pay of payments) {
        const id = pay.transaction_id;
        if (seen.has(id) || data.payments.has(id)) {
          throw new Error(`Transaction '${id}' already has a payment`);
        }
        seen.add(id);
      }
      for (const pay of payments) data.addPayment(pay);
      this.undo.push(() => {
        for (let i = payments.length - 1; i >= 0; i--) {
          data.removePayment(payments[i] as (typeof payments)[number]);
        }
      });
    },
    list: async (partner, query) => {
      this.check();
      const data = this.db.partner(partner);
      return data === undefined ? { total: 0, items: [] } : data.listPayments(query);
    },
  };

  readonly outbox: OutboxRepository = {
    add: async (partner, events) => {
      this.check();
      const db = this.db;
      const data = db.partnerForWrite(partner);
      const ids = new Set<string>();
      for (const e of events) {
        if (ids.has(e.id) || db.eventIds.has(e.id)) {
          throw new Error(`Outbox event '${e.id}' already exists`);
        }
        ids.add(e.id);
      }
      for (const e of events) {
        data.outbox.push({ ...e, sequence: data.outbox.length + 1 });
        db.eventIds.add(e.id);
      }
      this.undo.push(() => {
        data.outbox.length -= events.length;
        for (const e of events) db.eventIds.delete(e.id);
      });
    },
    list: async (partner, query) => {
      this.check();
      const events = this.db.partner(partner)?.outbox ?? [];
      const after = query.after ?? 0;
      // Sequences are 1, 2, 3…: the events after `after` start at index `after`.
      return events.slice(Math.max(0, after), Math.max(0, after) + query.limit);
    },
  };
}

/**
 * Creates an in-memory store: the default of `createEngine`, for tests, notebooks and replays of
 * stored state. Nothing survives the process.
 *
 * Calls run one at a time, in the order they were made: a unit of work holds the store until it
 * resolves (its writes kept) or throws (its writes taken back), and a call on the store itself
 * waits for the units before it. So a failure leaves no trace, and nobody sees half a unit. A
 * call on the store made inside a unit's `fn` would wait for that unit: use its session. The
 * store keeps the record objects it is given and hands them out: do not change them.
 * @returns the store
 * @example
 * ```ts
 * const engine = createEngine({ store: createMemoryStore() });
 * ```
 * @public
 */
export function createMemoryStore(): Store {
  const db = new Data();
  let queue: Promise<unknown> = Promise.resolve();

  const transaction = <T>(fn: (session: StoreSession) => Promise<T>): Promise<T> => {
    const run = async (): Promise<T> => {
      const session = new Session(db);
      try {
        return await fn(session);
      } catch (e) {
        session.rollback();
        throw e;
      } finally {
        session.end();
      }
    };
    const result = queue.then(run);
    // The next call waits for this one to settle, however it ends.
    queue = result.catch(() => undefined);
    return result;
  };

  /** A call on the store itself: a unit of work of that one call. */
  const one =
    <A extends unknown[], R>(pick: (s: StoreSession) => (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      transaction((s) => pick(s)(...args));

  return {
    transaction,
    offers: {
      list: one((s) => s.offers.list),
      revision: one((s) => s.offers.revision),
      upsert: one((s) => s.offers.upsert),
    },
    customers: {
      get: one((s) => s.customers.get),
      upsert: one((s) => s.customers.upsert),
    },
    transactions: {
      existing: one((s) => s.transactions.existing),
      insert: one((s) => s.transactions.insert),
      purchases: one((s) => s.transactions.purchases),
    },
    payments: {
      insert: one((s) => s.payments.insert),
      list: one((s) => s.payments.list),
    },
    outbox: {
      add: one((s) => s.outbox.add),
      list: one((s) => s.outbox.list),
    },
    close: async () => undefined,
  };
}
