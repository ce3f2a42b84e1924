import { ExactMoney } from '../../model/money.js';
import { isRecord } from '../../rules/_internals/isRecord.js';
import type { OutboxEvent } from '../../store/records.js';

/**
 * What `invariants.eachPaymentConfirmedOnce` compares the events with: the payments as they
 * stand and the last payment day that has begun.
 * @example
 * ```ts
 * const expected: ConfirmablePayments = {
 *   payments: [{ transaction_id: 't1', cashback: 2.5, payment_date: '2025-06-16' }],
 *   through: '2025-06-20',
 * };
 * ```
 * @public
 */
export interface ConfirmablePayments {
  /**
   * One partner's payments with their final cashback: a replay's payments with its adjustments
   * applied, or a listing's records with `cashback` their `cashback_amount`. Payments at 0 are
   * cancelled and never confirmed.
   */
  readonly payments: readonly {
    readonly transaction_id: string;
    readonly cashback: number;
    readonly payment_date: string;
  }[];
  /** The engine's day when it confirmed (`YYYY-MM-DD`): payment days up to it have begun. */
  readonly through: string;
}

/**
 * Most records in one `cashback.confirmed` event (docs/concepts.md, Confirmation). Stated here
 * rather than read from the engine, so that the check does not agree with the engine when the
 * engine is wrong.
 */
const CONFIRMED_PER_EVENT = 1000;

/** A confirmed record as the events carry it, with the event it came in. */
interface Confirmed {
  readonly event: string;
  readonly cashback: number;
  readonly day: string;
}

/** The records of one `cashback.confirmed` event, checked for their shape and their one day. */
function recordsOf(
  event: Pick<OutboxEvent, 'type' | 'payload'>,
  name: string,
): { transaction_id: string; cashback: number; day: string }[] {
  const fail = (why: string) => new Error(`cashback.confirmed event ${name}: ${why}`);
  const data = event.payload.data;
  const records = isRecord(data) ? data.records : undefined;
  if (!Array.isArray(records) || records.length === 0) throw fail('has no records');
  if (records.length > CONFIRMED_PER_EVENT) {
    throw fail(`has ${records.length} records, more than ${CONFIRMED_PER_EVENT}`);
  }
  const out = records.map((r: unknown, i) => {
    if (!isRecord(r) || typeof r.transaction_id !== 'string') {
      throw fail(`record ${i} has no transaction_id`);
    }
    if (r.status !== 'confirmed') {
      throw fail(`the record of '${r.transaction_id}' has status ${String(r.status)}`);
    }
    if (typeof r.cashback_amount !== 'number' || !(r.cashback_amount > 0)) {
      throw fail(`the record of '${r.transaction_id}' confirms ${String(r.cashback_amount)}`);
    }
    const day = typeof r.date === 'string' ? r.date.slice(0, 10) : '';
    return { transaction_id: r.transaction_id, cashback: r.cashback_amount, day };
  });
  if (new Set(out.map((r) => r.day)).size !== 1) throw fail('mixes payment days');
  return out;
}

/**
 * Checks an engine's `cashback.confirmed` events (docs/concepts.md, Confirmation): pass one
 * partner's outbox events (other types are passed over). Each event carries 1 to 1,000 records
 * of one payment day, each `confirmed` with a cashback above 0, and no payment is in two records,
 * whether of one event or of two: each payment is confirmed once, however often `confirmDue` ran
 * and on however many instances. With `expected`, the confirmed payments are exactly those above
 * 0 due on or before `through`, each with its final cashback and on its payment day.
 * @param events - the partner's outbox events (`store.outbox.list`, or what a webhook received)
 * @param expected - the payments and the last day begun, to check the events against
 * @throws Error naming the first payment confirmed twice, missing, or confirmed wrongly
 * @example
 * ```ts
 * await engine.confirmDue();
 * invariants.eachPaymentConfirmedOnce(await engine.store.outbox.list('bank-a', { limit: 1000 }));
 * ```
 * @public
 */
export function eachPaymentConfirmedOnce(
  events: readonly Pick<OutboxEvent, 'type' | 'payload'>[],
  expected?: ConfirmablePayments,
): void {
  const confirmed = new Map<string, Confirmed>();
  events.forEach((e, i) => {
    if (e.type !== 'cashback.confirmed') return;
    const name = typeof e.payload.event_id === 'string' ? `'${e.payload.event_id}'` : `#${i}`;
    for (const r of recordsOf(e, name)) {
      const before = confirmed.get(r.transaction_id);
      if (before !== undefined) {
        throw new Error(
          `payment '${r.transaction_id}' is confirmed twice: by event ${before.event} and by event ${name}`,
        );
      }
      confirmed.set(r.transaction_id, { event: name, cashback: r.cashback, day: r.day });
    }
  });
  if (expected === undefined) return;
  const due = new Set<string>();
  for (const p of expected.payments) {
    const fail = (why: string) => new Error(`payment '${p.transaction_id}': ${why}`);
    const c = confirmed.get(p.transaction_id);
    const isDue = p.payment_date <= expected.through && !new ExactMoney(p.cashback).isZero();
    if (!isDue) {
      if (c !== undefined) {
        throw fail(
          `confirmed by event ${c.event}, but it is ${p.cashback === 0 ? 'cancelled' : `due on ${p.payment_date}, after ${expected.through}`}`,
        );
      }
      continue;
    }
    due.add(p.transaction_id);
    if (c === undefined) throw fail(`due on ${p.payment_date}, but no event confirms it`);
    if (c.cashback !== p.cashback || c.day !== p.payment_date) {
      throw fail(
        `confirmed with ${c.cashback} on ${c.day}, but its final cashback is ${p.cashback} on ${p.payment_date}`,
      );
    }
  }
  for (const [id, c] of confirmed) {
    if (!due.has(id))
      throw new Error(
        `payment '${id}' is confirmed by event ${c.event}, but is not among the payments`,
      );
  }
}
