import type {
  CustomerRecord,
  OfferRecord,
  OutboxEvent,
  PaymentRecord,
  TransactionRecord,
} from '../records.js';
import type {
  CustomerRepository,
  OfferRepository,
  OutboxRepository,
  PaymentRepository,
  Store,
  StoredOutboxEvent,
  StoreSession,
  TransactionRepository,
} from '../Store.js';
import { _PartnerData } from './_PartnerData.js';

/** Writes of one unit of work, applied to the committed data only when it resolves. */
class Pending {
  readonly offers = new Map<number, OfferRecord>();
  readonly customers = new Map<string, Map<string, CustomerRecord>>();
  readonly transactions = new Map<string, Map<string, TransactionRecord>>();
  readonly payments = new Map<string, Map<string, PaymentRecord>>();
  readonly outbox = new Map<string, OutboxEvent[]>();
  readonly eventIds = new Set<string>();
}

function partnerMap<V>(m: Map<string, Map<string, V>>, partner: string): Map<string, V> {
  let inner = m.get(partner);
  if (inner === undefined) {
    inner = new Map();
    m.set(partner, inner);
  }
  return inner;
}

function requirePartner(partner: unknown): string {
  if (typeof partner !== 'string' || partner.length === 0) {
    throw new TypeError(`partner must be a non-empty string, got ${JSON.stringify(partner)}`);
  }
  return partner;
}

/** The committed data of a memory store. */
class Committed {
  readonly offers = new Map<number, OfferRecord>();
  revision = 0;
  readonly partners = new Map<string, _PartnerData>();
  readonly eventIds = new Set<string>();

  partner(partner: string): _PartnerData | undefined {
    return this.partners.get(requirePartner(partner));
  }

  partnerForWrite(partner: string): _PartnerData {
    let data = this.partners.get(partner);
    if (data === undefined) {
      data = new _PartnerData();
      this.partners.set(partner, data);
    }
    return data;
  }

  /** Applies a unit of work's writes; synchronous, so no other call sees half of them. */
  apply(p: Pending): void {
    if (p.offers.size > 0) {
      for (const [id, offer] of p.offers) this.offers.set(id, offer);
      this.revision++;
    }
    for (const [partner, m] of p.customers) {
      const data = this.partnerForWrite(partner);
      for (const [id, c] of m) data.customers.set(id, c);
    }
    for (const [partner, m] of p.transactions) {
      const data = this.partnerForWrite(partner);
      for (const t of m.values()) data.addTransaction(t);
    }
    for (const [partner, m] of p.payments) {
      const data = this.partnerForWrite(partner);
      for (const pay of m.values()) data.addPayment(pay);
    }
    for (const [partner, events] of p.outbox) {
      const data = this.partnerForWrite(partner);
      for (const e of events) {
        data.outbox.push({ ...e, sequence: data.outbox.length + 1 });
        this.eventIds.add(e.id);
      }
    }
  }
}

/**
 * The repositories seen from one unit of work: committed data with its own writes on top.
 * Once the unit has ended, every call throws.
 */
class Session implements StoreSession {
  private ended = false;
  constructor(
    private readonly db: Committed,
    private readonly pending: Pending,
  ) {}

  end(): void {
    this.ended = true;
  }

  private check(): Pending {
    if (this.ended) {
      throw new Error('This unit of work has ended; its session can no longer be used');
    }
    return this.pending;
  }

  readonly offers: OfferRepository = {
    list: async () => {
      const p = this.check();
      const all = new Map(this.db.offers);
      for (const [id, o] of p.offers) all.set(id, o);
      return [...all.values()].sort((a, b) => a.offer_id - b.offer_id);
    },
    revision: async () => this.db.revision + (this.check().offers.size > 0 ? 1 : 0),
    upsert: async (offers) => {
      const p = this.check();
      const ids = new Set<number>();
      for (const o of offers) {
        if (ids.has(o.offer_id)) throw new Error(`Offer ${o.offer_id} appears twice in one upsert`);
        ids.add(o.offer_id);
      }
      for (const o of offers) p.offers.set(o.offer_id, o);
    },
  };

  readonly customers: CustomerRepository = {
    get: async (partner, ids) => {
      const p = this.check();
      const mine = p.customers.get(requirePartner(partner));
      const data = this.db.partner(partner);
      const out: CustomerRecord[] = [];
      for (const id of ids) {
        const c = mine?.get(id) ?? data?.customers.get(id);
        if (c !== undefined) out.push(c);
      }
      return out;
    },
    upsert: async (partner, customers) => {
      const p = this.check();
      const mine = partnerMap(p.customers, requirePartner(partner));
      const data = this.db.partner(partner);
      let added = 0;
      for (const c of customers) {
        const id = c.customer_id;
        if (!mine.has(id) && data?.customers.has(id) !== true) added++;
        mine.set(id, c);
      }
      return { added, updated: customers.length - added };
    },
  };

  readonly transactions: TransactionRepository = {
    existing: async (partner, ids) => {
      const p = this.check();
      const mine = p.transactions.get(requirePartner(partner));
      const data = this.db.partner(partner);
      return ids.filter((id) => mine?.has(id) === true || data?.transactions.has(id) === true);
    },
    insert: async (partner, transactions) => {
      const p = this.check();
      const mine = partnerMap(p.transactions, requirePartner(partner));
      const data = this.db.partner(partner);
      const inserted: string[] = [];
      for (const t of transactions) {
        const id = t.transaction_id;
        if (mine.has(id) || data?.transactions.has(id) === true) continue;
        mine.set(id, t);
        inserted.push(id);
      }
      return inserted;
    },
    purchases: async (partner, query) => {
      const p = this.check();
      const out: TransactionRecord[] = [];
      this.db.partner(partner)?.purchases(query, out);
      const mine = p.transactions.get(partner);
      if (mine !== undefined && mine.size > 0) {
        const wanted = new Set(query.pairs.map((q) => `${q.customerId}\u0000${q.merchantKey}`));
        for (const t of mine.values()) {
          if (t.day >= query.fromDay && wanted.has(`${t.customer_id}\u0000${t.merchant_key}`)) {
            out.push(t);
          }
        }
      }
      return out;
    },
  };

  readonly payments: PaymentRepository = {
    insert: async (partner, payments) => {
      const p = this.check();
      const data = this.db.partner(partner);
      const mine = p.payments.get(requirePartner(partner));
      const seen = new Set<string>();
      for (const pay of payments) {
        const id = pay.transaction_id;
        if (seen.has(id) || mine?.has(id) === true || data?.payments.has(id) === true) {
          throw new Error(`Transaction '${id}' already has a payment`);
        }
        seen.add(id);
      }
      const target = partnerMap(p.payments, partner);
      for (const pay of payments) target.set(pay.transaction_id, pay);
    },
    list: async (partner, query) => {
      const p = this.check();
      const data = this.db.partner(partner) ?? new _PartnerData();
      const mine = p.payments.get(partner);
      return data.listPayments(query, mine === undefined ? [] : [...mine.values()]);
    },
  };

  readonly outbox: OutboxRepository = {
    add: async (partner, events) => {
      const p = this.check();
      requirePartner(partner);
      const ids = new Set<string>();
      for (const e of events) {
        if (ids.has(e.id) || p.eventIds.has(e.id) || this.db.eventIds.has(e.id)) {
          throw new Error(`Outbox event '${e.id}' already exists`);
        }
        ids.add(e.id);
      }
      const list = p.outbox.get(partner) ?? [];
      p.outbox.set(partner, list);
      for (const e of events) {
        list.push(e);
        p.eventIds.add(e.id);
      }
    },
    list: async (partner, query) => {
      const p = this.check();
      const committed = this.db.partner(partner)?.outbox ?? [];
      const mine = p.outbox.get(partner) ?? [];
      const all: StoredOutboxEvent[] = [
        ...committed,
        ...mine.map((e, i) => ({ ...e, sequence: committed.length + i + 1 })),
      ];
      const after = query.after ?? 0;
      return all.filter((e) => e.sequence > after).slice(0, query.limit);
    },
  };
}

/**
 * Creates an in-memory store: the default of `createEngine`, for tests, notebooks and replays of
 * stored state. Nothing survives the process.
 *
 * Units of work run one at a time (a queue); their writes are buffered and applied at once when
 * the work resolves, so a failure leaves no trace and a concurrent reader never sees half a unit.
 * Calls on the store itself read the committed data without waiting; writes on it run as units of
 * work of one call each. The store keeps the record objects it is given: do not change them after.
 * @returns the store
 * @example
 * ```ts
 * const engine = createEngine({ store: createMemoryStore() });
 * ```
 * @public
 */
export function createMemoryStore(): Store {
  const db = new Committed();
  let queue: Promise<unknown> = Promise.resolve();

  const transaction = <T>(fn: (session: StoreSession) => Promise<T>): Promise<T> => {
    const run = async (): Promise<T> => {
      const pending = new Pending();
      const session = new Session(db, pending);
      try {
        const result = await fn(session);
        db.apply(pending);
        return result;
      } finally {
        session.end();
      }
    };
    const result = queue.then(run);
    // The next unit waits for this one to settle, however it ends.
    queue = result.catch(() => undefined);
    return result;
  };

  // Reads on the store see committed data only: a session over an empty pending set.
  const committedReads = new Session(db, new Pending());
  const write =
    <A extends unknown[], R>(pick: (s: StoreSession) => (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      transaction((s) => pick(s)(...args));

  return {
    transaction,
    offers: {
      list: committedReads.offers.list,
      revision: committedReads.offers.revision,
      upsert: write((s) => s.offers.upsert),
    },
    customers: {
      get: committedReads.customers.get,
      upsert: write((s) => s.customers.upsert),
    },
    transactions: {
      existing: committedReads.transactions.existing,
      insert: write((s) => s.transactions.insert),
      purchases: committedReads.transactions.purchases,
    },
    payments: {
      insert: write((s) => s.payments.insert),
      list: committedReads.payments.list,
    },
    outbox: {
      add: write((s) => s.outbox.add),
      list: committedReads.outbox.list,
    },
    close: async () => undefined,
  };
}
