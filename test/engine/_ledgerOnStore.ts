/**
 * The payment ledger through the engine and its store (docs/concepts.md, The lifecycle of a
 * payment): offer revisions kept and used by returns, status in listings, confirmation exactly
 * once (also by four instances at once), late returns as clawbacks or ignored, payment history,
 * and a late return racing an early one. Shared by every store: the memory store
 * (test/engine/ledger.test.ts), PGlite and a PostgreSQL server (test/postgres/ledger.test.ts).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type CashbackEngine, createEngine, type EngineOptions } from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';
import { customer, offer, tx } from '../fixtures.js';

const A = 'bank-a';
const EVERYTHING = { date_from: '2025-01-01', date_to: '2025-12-31', page_size: 1000 };
/** Before every payment day of these tests: 2025-06-01. */
const JUNE_1 = new Date('2025-06-01T12:00:00.000Z');
/** After the payment day 2025-06-16 of a purchase on 2025-06-02 with 14 days' warranty. */
const JULY_1 = new Date('2025-07-01T12:00:00.000Z');

/** A clock that can be moved. */
function clockAt(start: Date) {
  let now = start;
  return {
    clock: () => now,
    set: (d: Date) => {
      now = d;
    },
  };
}

/** Counting event ids `<prefix>-1`, `<prefix>-2`, … */
function counter(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

/** A return of `t` on 2025-06-05 (before its payment day). */
function ret(id: string, t: string, amount?: number) {
  return {
    return_id: id,
    transaction_id: t,
    date: '2025-06-05T10:00:00',
    ...(amount === undefined ? {} : { amount }),
  };
}

/**
 * Registers the ledger tests.
 * @param createStore - a fresh, empty store per call
 */
export function describeLedgerOnStore(createStore: () => Promise<Store>): void {
  const opened: Store[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close?.();
  });
  async function engineOver(options: Partial<EngineOptions> = {}, store?: Store) {
    let s = store;
    if (s === undefined) {
      s = await createStore();
      opened.push(s);
    }
    return createEngine({ store: s, ids: counter('evt'), clock: () => JUNE_1, ...options });
  }
  async function paidOnce(engine: CashbackEngine, offers: readonly unknown[], amount = 100) {
    await engine.upsertOffers(offers);
    await engine.upsertCustomers(A, [customer()]);
    const r = await engine.addTransactions(A, [tx({ transaction_id: 't1', amount })]);
    expect(r.payments).toHaveLength(1);
  }

  describe('offer revisions', () => {
    test('a return works the payment out with the revision that paid it, not the offer now', async () => {
      const engine = await engineOver();
      await paidOnce(engine, [offer({ discount: 10 })]);
      await engine.upsertOffers([offer({ discount: 1 })]);
      // Paid 10.00 at 10 % of 100.00; a return of 1.00 leaves 99.00 at 10 %: 9.90.
      const r = await engine.addReturns(A, [ret('r1', 't1', 1)]);
      expect(r.adjustments.map((a) => [a.previous_cashback, a.cashback])).toEqual([[10, 9.9]]);
      const revisions = await engine.offerRevisions(1);
      expect(revisions.map((v) => [v.revision, v.offer.discount])).toEqual([
        [1, 10],
        [2, 1],
      ]);
      expect(revisions[0]?.effective_at).toBe(JUNE_1.toISOString());
      // A reload that changes nothing adds no revision.
      await engine.upsertOffers([offer({ discount: 1 })]);
      expect(await engine.offerRevisions(1)).toHaveLength(2);
      const listed = await engine.listPayments(A, EVERYTHING);
      expect(listed.transactions.map((p) => [p.offer_revision, p.status])).toEqual([
        [1, 'pending'],
      ]);
      await expect(engine.offerRevisions(0)).rejects.toThrow(RangeError);
      expect(await engine.offerRevisions(99)).toEqual([]);
    });
  });

  describe('status and confirmation', () => {
    test('the listing gives each payment its status as of the clock, and filters by it', async () => {
      const at = clockAt(JUNE_1);
      const engine = await engineOver({ clock: at.clock });
      await engine.upsertOffers([
        offer({ discount: 10, warranty: 0 }),
        offer({ offer_id: 2, merchant_name: 'Later', discount: 10 }),
      ]);
      await engine.upsertCustomers(A, [customer()]);
      await engine.addTransactions(A, [
        tx({ transaction_id: 'now', amount: 10, date: '2025-05-20T10:00:00' }),
        tx({
          transaction_id: 'later',
          amount: 10,
          merchant: { id: 'm', name: 'Later', category_code: '1' },
        }),
      ]);
      const status = async (s?: 'pending' | 'confirmed') =>
        (
          await engine.listPayments(A, { ...EVERYTHING, ...(s === undefined ? {} : { status: s }) })
        ).transactions.map((p) => [p.transaction_id, p.status]);
      expect(await status()).toEqual([
        ['now', 'confirmed'],
        ['later', 'pending'],
      ]);
      expect(await status('pending')).toEqual([['later', 'pending']]);
      expect(await status('confirmed')).toEqual([['now', 'confirmed']]);
      await expect(
        engine.listPayments(A, { ...EVERYTHING, status: 'paid' as never }),
      ).rejects.toThrow(/status/);
    });

    test('confirmDue confirms each payment once, in events of at most 1,000, and again adds none', async () => {
      const at = clockAt(JUNE_1);
      const engine = await engineOver({ clock: at.clock });
      await engine.upsertOffers([offer({ discount: 10 })]);
      await engine.upsertCustomers(A, [customer()]);
      const txs = Array.from({ length: 1005 }, (_, i) =>
        tx({ transaction_id: `t${i}`, amount: 10, date: '2025-06-02T09:00:00' }),
      );
      await engine.addTransactions(A, txs.slice(0, 700));
      await engine.addTransactions(A, txs.slice(700));
      expect(await engine.confirmDue()).toEqual({ events: 0, payments: 0 });
      at.set(JULY_1);
      expect(await engine.confirmDue()).toEqual({ events: 2, payments: 1005 });
      expect(await engine.confirmDue()).toEqual({ events: 0, payments: 0 });
      const confirmed = (await engine.store.outbox.list(A, { limit: 100 })).filter(
        (e) => e.type === 'cashback.confirmed',
      );
      const records = confirmed.flatMap(
        (e) =>
          (e.payload.data as { records: { transaction_id: string; status: string }[] }).records,
      );
      expect(
        confirmed.map((e) => (e.payload.data as { records: unknown[] }).records.length),
      ).toEqual([1000, 5]);
      expect(new Set(records.map((r) => r.transaction_id)).size).toBe(1005);
      expect(new Set(records.map((r) => r.status))).toEqual(new Set(['confirmed']));
    });

    test('four instances confirming at once put each payment in exactly one event', async () => {
      const store = await createStore();
      opened.push(store);
      const setup = await engineOver({}, store);
      await setup.upsertOffers([offer({ discount: 10 })]);
      for (const p of [A, 'bank-b']) {
        await setup.upsertCustomers(p, [customer()]);
        await setup.addTransactions(
          p,
          Array.from({ length: 1300 }, (_, i) =>
            tx({ transaction_id: `t${i}`, amount: 10, date: `2025-06-0${2 + (i % 3)}T09:00:00` }),
          ),
        );
      }
      const engines = Array.from({ length: 4 }, (_, k) =>
        createEngine({ store, clock: () => JULY_1, ids: counter(`e${k}`) }),
      );
      const results = await Promise.all(engines.map((e) => e.confirmDue()));
      expect(results.reduce((n, r) => n + r.payments, 0)).toBe(2600);
      for (const p of [A, 'bank-b']) {
        const ids = (await store.outbox.list(p, { limit: 1000 }))
          .filter((e) => e.type === 'cashback.confirmed')
          .flatMap((e) => (e.payload.data as { records: { transaction_id: string }[] }).records)
          .map((r) => r.transaction_id);
        expect(ids).toHaveLength(1300);
        expect(new Set(ids).size).toBe(1300);
      }
    });
  });

  describe('late returns', () => {
    test('a return that arrives once its payment is confirmed is a clawback; the payment and the budget stay', async () => {
      const at = clockAt(JUNE_1);
      const engine = await engineOver({ clock: at.clock });
      await paidOnce(engine, [offer({ discount: 10, budget: { amount: 15 } })]);
      at.set(JULY_1);
      const first = await engine.addReturns(A, [ret('r1', 't1', 40)]);
      expect(first.adjustments).toEqual([]);
      expect(first.clawbacks).toEqual([
        {
          return_id: 'r1',
          transaction_id: 't1',
          customer_id: 'c1',
          offer_id: 1,
          offer_revision: 1,
          amount: 4,
          date: '2025-06-05T10:00:00.000',
          reported_at: '2025-07-01T12:00:00.000',
        },
      ]);
      // Less its earlier clawbacks: 10.00 at 10 % of what is left (20.00) is 2.00, so 4.00 more.
      const second = await engine.addReturns(A, [ret('r2', 't1', 40)]);
      expect(second.clawbacks.map((c) => c.amount)).toEqual([4]);
      expect(
        (await engine.listPayments(A, EVERYTHING)).transactions.map((p) => p.cashback_amount),
      ).toEqual([10]);
      // No budget got anything back: 5.00 of the 15.00 are left, a 10.00 purchase pays 5.00.
      const next = await engine.addTransactions(A, [
        tx({ transaction_id: 't2', amount: 100, date: '2025-06-20T10:00:00' }),
      ]);
      expect(next.payments.map((p) => p.cashback)).toEqual([5]);
      const listed = await engine.listClawbacks(A, {
        date_from: '2025-06-01',
        date_to: '2025-06-30',
      });
      expect(listed.total_count).toBe(2);
      expect(listed.clawbacks.map((c) => [c.return_id, c.amount])).toEqual([
        ['r1', 4],
        ['r2', 4],
      ]);
      const history = await engine.paymentHistory(A, 't1');
      expect(history).toMatchObject({
        decided_cashback: 10,
        cashback: 10,
        clawed_back: 8,
        offer_revision: 1,
        status: 'confirmed',
      });
      expect(history?.changes.map((c) => [c.kind, c.return_id])).toEqual([
        ['clawback', 'r1'],
        ['clawback', 'r2'],
      ]);
      const types = (await engine.store.outbox.list(A, { limit: 20 })).map((e) => e.type);
      expect(types.filter((t) => t === 'cashback.clawed_back')).toHaveLength(2);
    });

    test("with lateReturns 'ignore' a late return is stored and answered late_return; nothing is taken", async () => {
      const at = clockAt(JUNE_1);
      const engine = await engineOver({ clock: at.clock, lateReturns: 'ignore' });
      await paidOnce(engine, [offer({ discount: 10 })]);
      at.set(JULY_1);
      const r = await engine.addReturns(A, [ret('r1', 't1', 40)]);
      expect(r.details.errors.map((e) => e.code)).toEqual(['late_return']);
      expect(r.clawbacks).toEqual([]);
      expect(await engine.store.returns.existing(A, ['r1'])).toEqual(['r1']);
      expect((await engine.paymentHistory(A, 't1'))?.changes).toEqual([]);
    });

    test('a history names the payment as decided, then each adjustment and clawback in order', async () => {
      const at = clockAt(JUNE_1);
      const engine = await engineOver({ clock: at.clock });
      await paidOnce(engine, [offer({ discount: 10 })]);
      await engine.addReturns(A, [ret('r1', 't1', 50)]);
      at.set(JULY_1);
      await engine.addReturns(A, [ret('r2', 't1', 10)]);
      const h = await engine.paymentHistory(A, 't1');
      expect(h).toMatchObject({ decided_cashback: 10, cashback: 5, clawed_back: 1 });
      expect(h?.changes).toEqual([
        {
          kind: 'adjustment',
          return_id: 'r1',
          previous_cashback: 10,
          cashback: 5,
          recorded_at: JUNE_1.toISOString(),
        },
        expect.objectContaining({ kind: 'clawback', return_id: 'r2', amount: 1 }),
      ]);
      expect(await engine.paymentHistory(A, 'nowhere')).toBeUndefined();
      await expect(engine.paymentHistory(A, '')).rejects.toThrow(/transaction_id/);
    });

    test('a late return racing an early one never takes more than was paid, nor gives a budget back for a clawback', async () => {
      const store = await createStore();
      opened.push(store);
      const setup = await engineOver({}, store);
      await paidOnce(setup, [offer({ discount: 10, budget: { amount: 10 } })]);
      const early = createEngine({ store, clock: () => JUNE_1, ids: counter('early') });
      const late = createEngine({ store, clock: () => JULY_1, ids: counter('late') });
      const [e, l] = await Promise.all([
        early.addReturns(A, [ret('early', 't1', 60)]),
        late.addReturns(A, [ret('late', 't1', 40)]),
      ]);
      const taken =
        e.adjustments.reduce((n, a) => n + a.previous_cashback - a.cashback, 0) +
        l.adjustments.reduce((n, a) => n + a.previous_cashback - a.cashback, 0) +
        e.clawbacks.reduce((n, c) => n + c.amount, 0) +
        l.clawbacks.reduce((n, c) => n + c.amount, 0);
      expect(taken).toBeLessThanOrEqual(10);
      expect(l.adjustments).toEqual([]);
      // The budget got back what the early adjustment took, never what a clawback took.
      const given = e.adjustments.reduce((n, a) => n + a.previous_cashback - a.cashback, 0);
      const spent = await store.funding.hold(A, [
        { offer_id: 1, customer_id: null, from: '0000-01-01', to: '9999-12-31' },
      ]);
      expect(Number(spent[0]?.amount)).toBeCloseTo(10 - given, 10);
    });

    test('a return decided after a clawback of its payment is late too, whatever its clock', async () => {
      const store = await createStore();
      opened.push(store);
      const setup = await engineOver({}, store);
      await paidOnce(setup, [offer({ discount: 10, budget: { amount: 10 } })]);
      const late = createEngine({ store, clock: () => JULY_1, ids: counter('late') });
      const early = createEngine({ store, clock: () => JUNE_1, ids: counter('early') });
      const l = await late.addReturns(A, [ret('late', 't1', 40)]);
      expect(l.clawbacks.map((c) => c.amount)).toEqual([4]);
      // Decided on its own, this return would lower the payment from 10 to 0 before its day.
      const e = await early.addReturns(A, [ret('early', 't1', 60)]);
      expect(e.adjustments).toEqual([]);
      expect(e.clawbacks.map((c) => c.amount)).toEqual([6]);
      const history = await early.paymentHistory(A, 't1');
      expect(history?.changes.map((h) => [h.kind, h.return_id])).toEqual([
        ['clawback', 'late'],
        ['clawback', 'early'],
      ]);
    });
  });
}
