import { Money } from '../../model/money.js';
import type { PaymentRecord, StoredPayment } from '../records.js';
import type { ConfirmationRepository, PaymentRepository } from '../Store.js';
import type { MemoryData } from './MemoryData.js';

/** What a memory store's repositories share of their unit of work. */
export interface MemoryUnit {
  /** Throws once the unit has ended. */
  check(): void;
  /** Logs how to take back a write of the unit. */
  undo(step: () => void): void;
  /** Counts `n` records written by the unit under the store's bound. */
  added(n: number): void;
}

/** Whether two plain decimal texts are the same number (`0.60` and `0.6`). */
function sameAmount(a: string, b: string): boolean {
  return a === b || new Money(a).eq(b);
}

/**
 * A memory store's payments (docs/stores.md, Repositories), seen from one unit of work: records,
 * listings by payment day, adjustments of payments not confirmed, histories and clawbacks.
 * @param db - the store's data
 * @param unit - the unit of work
 * @returns the repository
 */
export function memoryPayments(db: MemoryData, unit: MemoryUnit): PaymentRepository {
  return {
    insert: async (partner, payments) => {
      unit.check();
      const data = db.partnerForWrite(partner);
      const seen = new Set<string>();
      for (const pay of payments) {
        const id = pay.transaction_id;
        if (seen.has(id) || data.payments.has(id)) {
          throw new Error(`Transaction '${id}' already has a payment`);
        }
        seen.add(id);
      }
      db.reserve(payments.length);
      const undo = payments.map((pay) => {
        data.addPayment(pay);
        return data.ledger.added(pay);
      });
      unit.undo(() => {
        for (let i = payments.length - 1; i >= 0; i--) {
          (undo[i] as () => void)();
          data.removePayment(payments[i] as PaymentRecord);
        }
      });
      unit.added(payments.length);
    },
    list: async (partner, query) => {
      unit.check();
      const data = db.partner(partner);
      return data === undefined ? { total: 0, items: [] } : data.listPayments(query);
    },
    get: async (partner, ids) => {
      unit.check();
      const data = db.partner(partner);
      const out: StoredPayment[] = [];
      if (data === undefined) return out;
      for (const id of ids) {
        const p = data.payments.get(id);
        if (p === undefined) continue;
        const { clawedBack, confirmedEvent } = data.ledger.state(id);
        out.push({ ...p, clawed_back_amount: clawedBack, confirmed_event: confirmedEvent });
      }
      return out;
    },
    adjust: async (partner, adjustments) => {
      unit.check();
      const data = db.partner(partner);
      if (data === undefined) return [];
      const changed: [PaymentRecord, PaymentRecord][] = [];
      for (const a of adjustments) {
        const old = data.payments.get(a.transaction_id);
        if (old === undefined || !sameAmount(old.cashback_amount, a.previous_cashback_amount)) {
          continue;
        }
        // A confirmed payment's cashback never changes again (docs/concepts.md, Confirmation).
        if (data.ledger.confirmed(a.transaction_id)) continue;
        const next = { ...old, cashback_amount: a.cashback_amount };
        data.replacePayment(old, next);
        changed.push([old, next]);
      }
      unit.undo(() => {
        for (let i = changed.length - 1; i >= 0; i--) {
          const [old, next] = changed[i] as [PaymentRecord, PaymentRecord];
          data.replacePayment(next, old);
        }
      });
      return changed.map(([, next]) => next.transaction_id);
    },
    record: async (partner, changes) => {
      unit.check();
      const data = db.partnerForWrite(partner);
      const claws = new Set<string>();
      for (const c of changes) {
        if (!data.payments.has(c.transaction_id)) {
          throw new Error(`Transaction '${c.transaction_id}' has no payment to record a change of`);
        }
        if (c.kind !== 'clawback') continue;
        if (claws.has(c.return_id) || data.ledger.hasClawback(c.return_id)) {
          throw new Error(`Return '${c.return_id}' already has a clawback`);
        }
        claws.add(c.return_id);
      }
      db.reserve(changes.length);
      unit.undo(data.ledger.record(changes));
      unit.added(changes.length);
    },
    history: async (partner, transactionId) => {
      unit.check();
      return [...(db.partner(partner)?.ledger.history(transactionId) ?? [])];
    },
    clawbacks: async (partner, query) => {
      unit.check();
      return db.partner(partner)?.ledger.clawbacks(query) ?? { total: 0, items: [] };
    },
  };
}

/**
 * A memory store's confirmations: units run one at a time, so the first partner (in code-unit
 * order) with payments due is taken whole, a day at a time.
 * @param db - the store's data
 * @param unit - the unit of work
 * @returns the repository
 */
export function memoryConfirmations(db: MemoryData, unit: MemoryUnit): ConfirmationRepository {
  return {
    take: async ({ through, limit, event_id }) => {
      unit.check();
      for (const partner of [...db.partners.keys()].sort()) {
        const data = db.partners.get(partner);
        if (data === undefined) continue;
        const due = data.ledger.dueOn(through, limit, (id) => data.payments.get(id));
        if (due === undefined) continue;
        unit.undo(data.ledger.confirm(due.day, due.ids, event_id));
        const payments = due.ids.map((id) => data.payments.get(id) as PaymentRecord);
        return { partner, payment_date: due.day, payments };
      }
      return undefined;
    },
  };
}
