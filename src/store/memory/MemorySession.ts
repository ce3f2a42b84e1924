import { ExactMoney } from '../../model/money.js';
import { checkFundingChanges, checkFundingRanges, checkFundingRecount } from '../fundingInput.js';
import { checkInsertOptions } from '../insertHold.js';
import type {
  ActivationRecord,
  CustomerRecord,
  OfferRevision,
  ReturnRecord,
  TransactionRecord,
} from '../records.js';
import { requirePartner } from '../requirePartner.js';
import type {
  ActivationRepository,
  ConfirmationRepository,
  CustomerRepository,
  FundingRecount,
  FundingRepository,
  OfferRepository,
  OutboxRepository,
  PaymentRepository,
  ReturnedTotal,
  ReturnRepository,
  StoreSession,
  TransactionRepository,
} from '../Store.js';
import type { MemoryData } from './MemoryData.js';
import type { RecountedPayment } from './MemoryFunding.js';
import { type MemoryUnit, memoryConfirmations, memoryPayments } from './memoryPayments.js';

/**
 * The repositories seen from one unit of work of a memory store. Writes go straight into the
 * data, each call logging how to take itself back; units run one at a time and reads on the store
 * wait for the open unit, so nobody else sees a write before its unit resolves. Every write checks
 * the store's bound and everything else it can refuse for before it changes anything. Once the
 * unit has ended, every call throws.
 */
export class MemorySession implements StoreSession {
  private ended = false;
  /** How to take back each write of the unit, oldest first. */
  private readonly undo: (() => void)[] = [];

  constructor(private readonly db: MemoryData) {
    this.payments = memoryPayments(db, this.unit);
    this.confirmations = memoryConfirmations(db, this.unit);
  }

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

  /** Counts `n` records written by this unit, and logs how to take the count back. */
  private added(n: number): void {
    const db = this.db;
    db.records += n;
    this.undo.push(() => {
      db.records -= n;
    });
  }

  readonly offers: OfferRepository = {
    list: async () => {
      this.check();
      return [...this.db.offers.values()]
        .map((revisions) => revisions.at(-1) as OfferRevision)
        .sort((a, b) => a.offer.offer_id - b.offer.offer_id);
    },
    history: async (offerIds) => {
      this.check();
      return [...new Set(offerIds)]
        .sort((a, b) => a - b)
        .flatMap((id) => this.db.offers.get(id) ?? []);
    },
    revision: async () => {
      this.check();
      return this.db.revision;
    },
    upsert: async (revisions) => {
      this.check();
      const db = this.db;
      const ids = new Set<number>();
      for (const r of revisions) {
        const id = r.offer.offer_id;
        if (ids.has(id)) throw new Error(`Offer ${id} appears twice in one upsert`);
        ids.add(id);
        const next = (db.offers.get(id)?.length ?? 0) + 1;
        if (r.revision !== next) {
          throw new Error(`Offer ${id}: revision ${r.revision} is not its next one (${next})`);
        }
      }
      if (revisions.length === 0) return;
      db.reserve(revisions.length);
      const revision = db.revision;
      for (const r of revisions) {
        const list = db.offers.get(r.offer.offer_id);
        if (list === undefined) db.offers.set(r.offer.offer_id, [r]);
        else list.push(r);
      }
      db.revision++;
      this.undo.push(() => {
        for (const r of revisions) {
          const list = db.offers.get(r.offer.offer_id) as OfferRevision[];
          list.pop();
          if (list.length === 0) db.offers.delete(r.offer.offer_id);
        }
        db.revision = revision;
      });
      this.added(revisions.length);
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
      if (!this.db.fits(customers.length)) {
        this.db.reserve(customers.filter((c) => !data.customers.has(c.customer_id)).length);
      }
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
      this.added(added);
      return { added, updated: customers.length - added };
    },
  };

  readonly activations: ActivationRepository = {
    get: async (partner, query) => {
      this.check();
      const data = this.db.partner(partner);
      const out: ActivationRecord[] = [];
      if (data === undefined) return out;
      for (const id of query.customerIds) {
        const byOffer = data.activations.get(id);
        if (byOffer === undefined) continue;
        for (const offerId of query.offerIds) {
          const a = byOffer.get(offerId);
          if (a !== undefined) out.push(a);
        }
      }
      return out;
    },
    add: async (partner, activations) => {
      this.check();
      const data = this.db.partnerForWrite(partner);
      const fresh = activations.filter(
        (a) => data.activations.get(a.customer_id)?.has(a.offer_id) !== true,
      );
      this.db.reserve(fresh.length);
      for (const a of fresh) {
        const byOffer = data.activations.get(a.customer_id);
        if (byOffer === undefined) data.activations.set(a.customer_id, new Map([[a.offer_id, a]]));
        else byOffer.set(a.offer_id, a);
      }
      this.undo.push(() => {
        for (const a of fresh) {
          const byOffer = data.activations.get(a.customer_id);
          byOffer?.delete(a.offer_id);
          if (byOffer?.size === 0) data.activations.delete(a.customer_id);
        }
      });
      this.added(fresh.length);
      return { added: fresh.length, updated: activations.length - fresh.length };
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
    get: async (partner, ids) => {
      this.check();
      const data = this.db.partner(partner);
      const out: TransactionRecord[] = [];
      if (data === undefined) return out;
      for (const id of ids) {
        const t = data.transaction(id);
        if (t !== undefined) out.push(t);
      }
      return out;
    },
    insert: async (partner, transactions, options) => {
      this.check();
      // Units of the memory store run one at a time: holding a customer takes nothing more.
      checkInsertOptions(options);
      const data = this.db.partnerForWrite(partner);
      if (!this.db.fits(transactions.length)) {
        this.db.reserve(data.countNewTransactions(transactions));
      }
      const idsBefore = data.transactionIds.size;
      const inserted = data.addTransactions(transactions);
      this.undo.push(() => data.removeTransactions(inserted, idsBefore));
      this.added(inserted.length);
      return inserted.map((t) => t.transaction_id);
    },
    purchases: async (partner, query) => {
      this.check();
      return this.db.partner(partner)?.purchases(query) ?? [];
    },
  };

  /** What the repositories built apart share of this unit. */
  private readonly unit: MemoryUnit = {
    check: () => this.check(),
    undo: (step) => {
      this.undo.push(step);
    },
    added: (n) => this.added(n),
  };

  readonly payments: PaymentRepository;

  readonly confirmations: ConfirmationRepository;

  readonly returns: ReturnRepository = {
    existing: async (partner, ids) => {
      this.check();
      const returns = this.db.partner(partner)?.returns;
      return returns === undefined ? [] : ids.filter((id) => returns.has(id));
    },
    hold: async (partner, ids) => {
      // Units of work run one at a time: holding is reading.
      this.check();
      const returns = this.db.partner(partner)?.returns;
      const out: ReturnedTotal[] = [];
      if (returns === undefined) return out;
      for (const id of new Set(ids)) {
        const t = returns.total(id);
        if (t !== undefined) out.push(t);
      }
      return out;
    },
    ofTransactions: async (partner, ids) => {
      this.check();
      const returns = this.db.partner(partner)?.returns;
      const out: ReturnRecord[] = [];
      if (returns === undefined) return out;
      for (const id of ids) out.push(...(returns.of(id) ?? []));
      return out;
    },
    insert: async (partner, records) => {
      this.check();
      const data = this.db.partnerForWrite(partner);
      if (!this.db.fits(records.length)) this.db.reserve(data.returns.countNew(records));
      const inserted = data.returns.add(records);
      this.undo.push(() => data.returns.remove(inserted));
      this.added(inserted.length);
      return inserted.map((r) => r.return_id);
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
      db.reserve(events.length);
      for (const e of events) {
        data.outbox.push({ ...e, sequence: data.outbox.length + 1 });
        db.eventIds.add(e.id);
      }
      this.undo.push(() => {
        data.outbox.length -= events.length;
        for (const e of events) db.eventIds.delete(e.id);
      });
      this.added(events.length);
    },
    list: async (partner, query) => {
      this.check();
      const events = this.db.partner(partner)?.outbox ?? [];
      const after = query.after ?? 0;
      // Sequences are 1, 2, 3…: the events after `after` start at index `after`.
      return events.slice(Math.max(0, after), Math.max(0, after) + query.limit);
    },
  };

  /**
   * Funding counters. Units run one at a time, so `hold` is a read: no other unit can change a
   * counter before this one ends.
   */
  readonly funding: FundingRepository = {
    hold: async (partner, ranges) => {
      this.check();
      requirePartner(partner);
      checkFundingRanges(ranges);
      return ranges.map((r) => this.db.funding.total(partner, r));
    },
    add: async (partner, changes) => {
      this.check();
      requirePartner(partner);
      checkFundingChanges(changes);
      const funding = this.db.funding;
      if (!this.db.fits(changes.length)) this.db.reserve(funding.countNew(partner, changes));
      const { created, undo } = funding.add(partner, changes);
      this.undo.push(undo);
      this.added(created);
    },
    recount: async (query) => {
      this.check();
      checkFundingRecount(query);
      const { created, undo } = this.db.funding.recount(this.paymentsOf(query), query);
      // Taken back with the unit, also when the bound refuses it below.
      this.undo.push(undo);
      if (created > 0) this.db.reserve(created);
      this.added(created);
    },
  };

  /** Every partner's payments of the offers `query` names, with their transaction's day. */
  private *paymentsOf(query: FundingRecount): Iterable<RecountedPayment> {
    const offers = new Set([...query.budgets, ...query.caps]);
    for (const [partner, data] of this.db.partners) {
      for (const p of data.payments.values()) {
        if (!offers.has(p.offer_id)) continue;
        const day = data.transaction(p.transaction_id)?.day;
        if (day === undefined) continue;
        const amount = new ExactMoney(p.cashback_amount);
        yield { partner, customerId: p.customer_id, offerId: p.offer_id, day, amount };
      }
    }
  }
}
