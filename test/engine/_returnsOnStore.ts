/**
 * `engine.addReturns` through its store: adjustments, the listing and the `cashback.adjusted`
 * event, every error code, tenancy, two returns of one transaction in one call and across calls,
 * racing calls, and a property test of the invariants of returns. Shared by every
 * store: the memory store (test/engine/returns.test.ts), PGlite and a PostgreSQL server
 * (test/postgres/returns.test.ts).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { type CashbackEngine, createEngine, type EngineOptions } from '../../src/engine/entry.js';
import { Money } from '../../src/index.js';
import type { Store } from '../../src/store/entry.js';
import { customer, history, offer, tx } from '../fixtures.js';

const A = 'bank-a';
const B = 'bank-b';
const NOON = '2025-06-01T12:00:00.000Z';
const EVERYTHING = { date_from: '0001-01-01', date_to: '9999-12-31', page_size: 1000 };

/** Counting event ids `evt-1`, `evt-2`, … */
function counter(prefix = 'evt'): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

/** A return of t1 on 2025-06-05 (before its payment day 2025-06-16); `over` replaces fields. */
function ret(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { return_id: id, transaction_id: 't1', date: '2025-06-05T10:00:00', ...over };
}

/** The listing's cashback by transaction id. */
async function listed(engine: CashbackEngine, partner = A): Promise<Record<string, number>> {
  const page = await engine.listPayments(partner, EVERYTHING);
  return Object.fromEntries(page.transactions.map((p) => [p.transaction_id, p.cashback_amount]));
}

/** What the groups of tests share: engines over fresh stores, closed after each test. */
interface Kit {
  /** An engine with offers 1 (5 %, warranty 14, cap 4.9) and 2, customer c1, t1 (100.00) paid 4.90. */
  paid(options?: EngineOptions): Promise<CashbackEngine>;
  /** Closes every store taken so far. */
  closeAll(): Promise<void>;
}

/**
 * The tests, on engines over stores from `createStore`: each call gives a new, empty store,
 * closed after the test.
 * @param createStore - a fresh, empty store
 * @param propertyRuns - runs of the property test
 * @param concurrentUnits - whether the store runs units of work at once (a server does; the
 *   memory store and PGlite run one at a time), so that a racing call can commit inside another's
 */
export function describeReturnsOnStore(
  createStore: () => Promise<Store>,
  propertyRuns: number,
  concurrentUnits = false,
): void {
  const opened: Store[] = [];
  async function closeAll(): Promise<void> {
    for (const store of opened.splice(0)) await store.close?.();
  }
  afterEach(closeAll);

  async function paid(options: EngineOptions = {}): Promise<CashbackEngine> {
    let store = options.store;
    if (store === undefined) {
      store = await createStore();
      opened.push(store);
    }
    const engine = createEngine({ clock: () => new Date(NOON), ids: counter(), ...options, store });
    await engine.upsertOffers([
      offer({ max_cashback: 4.9 }),
      offer({ offer_id: 2, min_amount: 1000 }),
    ]);
    await engine.upsertCustomers(A, [customer()]);
    const r = await engine.addTransactions(A, [tx({ amount: 100 })]);
    expect(r.payments).toEqual([
      { cashback: 4.9, payment_date: '2025-06-16', transaction_id: 't1' },
    ]);
    return engine;
  }
  const kit: Kit = { paid, closeAll };
  exampleTests(kit);
  batchTests(kit);
  raceTests(kit, concurrentUnits);
  invariantTests(kit, propertyRuns);
}

/** A return, its codes and tenancy. */
function exampleTests(kit: Kit): void {
  const { paid } = kit;
  describe('addReturns', () => {
    test('a return before the payment day lowers the payment; the listing and the event show it', async () => {
      const engine = await paid();
      const r = await engine.addReturns(A, [ret('r1', { amount: '40.00' })]);
      expect(r).toEqual({
        event_id: 'evt-2',
        adjustments: [
          {
            return_id: 'r1',
            transaction_id: 't1',
            customer_id: 'c1',
            offer_id: 1,
            previous_cashback: 4.9,
            cashback: 3,
            payment_date: '2025-06-16',
          },
        ],
        clawbacks: [],
        errors: {},
        details: { errors: [] },
      });
      expect(await listed(engine)).toEqual({ t1: 3 });
      const events = await engine.store.outbox.list(A, { limit: 10 });
      expect(events.map((e) => e.type)).toEqual(['cashback.created', 'cashback.adjusted']);
      expect(events[1]).toMatchObject({
        id: 'evt-2',
        created_at: NOON,
        payload: {
          type: 'cashback.adjusted',
          event_id: 'evt-2',
          timestamp: NOON,
          data: {
            records: [
              {
                transaction_id: 't1',
                country: 'FR',
                city: 'Paris',
                date: '2025-06-16T00:00:00.000',
                cashback_amount: 3,
                offer_id: 1,
                customer_id: 'c1',
                offer_revision: 1,
                status: 'pending',
                previous_cashback_amount: 4.9,
              },
            ],
          },
        },
      });
      const stored = await engine.store.returns.ofTransactions(A, ['t1']);
      expect(stored.map((s) => ({ ...s, amount: Number(s.amount) }))).toEqual([
        {
          return_id: 'r1',
          transaction_id: 't1',
          date: '2025-06-05T10:00:00.000000000',
          day: '2025-06-05',
          amount: 40,
          event_id: 'evt-2',
        },
      ]);
    });

    test('a return of all that is left cancels the payment: the listing leaves it out', async () => {
      const engine = await paid();
      await engine.addReturns(A, [ret('r1', { amount: 30 })]);
      const r = await engine.addReturns(A, [ret('r2')]);
      expect(r.adjustments.map((a) => [a.previous_cashback, a.cashback])).toEqual([[3.5, 0]]);
      expect(await listed(engine)).toEqual({});
      expect((await engine.listPayments(A, EVERYTHING)).total_count).toBe(0);
      const again = await engine.addReturns(A, [ret('r3', { amount: 1 })]);
      expect(again.errors).toEqual({
        r3: "Return of 1 exceeds what is left of transaction 't1': 0",
      });
    });

    test('names every error by code, and stores the returns past the first five checks', async () => {
      const engine = await paid();
      await engine.addHistory(A, [history({ transaction_id: 'h1', amount: 20 })]);
      const r = await engine.addReturns(A, [
        ret('bad', { amount: -1 }),
        { transaction_id: 't1' },
        ret('lost', { transaction_id: 'nowhere' }),
        ret('early', { date: '2025-06-01T00:00:00' }),
        ret('big', { amount: 100.01 }),
        ret('unpaid', { transaction_id: 'h1', amount: 5 }),
        ret('late', { date: '2025-06-16T00:00:00', amount: 10 }),
        ret('late', { amount: 10 }),
      ]);
      expect(r.details.errors.map((e) => [e.key, e.code])).toEqual([
        ['bad', 'invalid_return'],
        ['#1', 'invalid_return'],
        ['lost', 'transaction_not_found'],
        ['early', 'invalid_return'],
        ['big', 'return_exceeds_amount'],
        ['unpaid', 'not_paid'],
        ['late', 'after_warranty'],
        ['late', 'duplicate_return'],
      ]);
      expect(r.adjustments).toEqual([]);
      expect(r.errors.late).toBe(
        "Returned on 2025-06-16, on or after the payment day 2025-06-16: the cashback stands; Return 'late' is already in the service",
      );
      expect(await listed(engine)).toEqual({ t1: 4.9 });
      expect((await engine.store.outbox.list(A, { limit: 10 })).length).toBe(1);
      const again = await engine.addReturns(A, [
        ret('unpaid'),
        ret('late'),
        ret('lost', { amount: 1 }),
      ]);
      // 'lost' was not stored by the first call, so it is no duplicate: it returns 1 of t1, of
      // which 'late' returned 10 already; 5 % of the 89 left is 4.45.
      expect(again.details.errors.map((e) => e.code)).toEqual([
        'duplicate_return',
        'duplicate_return',
      ]);
      expect(again.adjustments.map((a) => [a.return_id, a.cashback])).toEqual([['lost', 4.45]]);
    });
  });
}

/** Returns of one transaction in one call, the offer's terms, calls without adjustments. */
function batchTests(kit: Kit): void {
  const { paid } = kit;
  describe('addReturns, more', () => {
    test('returns are per partner: one partner cannot return, or collide with, another’s', async () => {
      const engine = await paid();
      await engine.upsertCustomers(B, [customer()]);
      await engine.addTransactions(B, [tx({ transaction_id: 'b1', amount: 100 })]);
      const fromB = await engine.addReturns(B, [ret('r1', { amount: 10 })]);
      expect(fromB.details.errors.map((e) => e.code)).toEqual(['transaction_not_found']);
      const own = await engine.addReturns(B, [ret('r1', { transaction_id: 'b1', amount: 10 })]);
      expect(own.adjustments.map((a) => a.cashback)).toEqual([4.5]);
      const fromA = await engine.addReturns(A, [ret('r1', { amount: 10 })]);
      expect(fromA.adjustments.map((a) => a.cashback)).toEqual([4.5]);
      expect(await listed(engine, B)).toEqual({ b1: 4.5 });
    });

    test('two returns of one transaction in one call: the second sees the first', async () => {
      const engine = await paid();
      const r = await engine.addReturns(A, [
        ret('r1', { amount: 50 }),
        ret('r2', { amount: 60 }),
        ret('r3', { amount: 40 }),
      ]);
      expect(r.adjustments.map((a) => [a.return_id, a.previous_cashback, a.cashback])).toEqual([
        ['r1', 4.9, 2.5],
        ['r3', 2.5, 0.5],
      ]);
      expect(r.errors).toEqual({ r2: "Return of 60 exceeds what is left of transaction 't1': 50" });
      expect(await listed(engine)).toEqual({ t1: 0.5 });
      const events = await engine.store.outbox.list(A, { limit: 10 });
      const data = events[1]?.payload.data as { records: Record<string, unknown>[] } | undefined;
      const records = data?.records ?? [];
      expect(records.map((x) => [x.previous_cashback_amount, x.cashback_amount])).toEqual([
        [4.9, 2.5],
        [2.5, 0.5],
      ]);
    });

    test('a net amount below min_amount of the offer that paid earns nothing', async () => {
      const engine = await paid();
      await engine.addTransactions(A, [
        tx({ transaction_id: 't2', amount: 2000, date: '2025-06-03T10:00:00' }),
      ]);
      expect((await listed(engine)).t2).toBe(100);
      const r = await engine.addReturns(A, [ret('r1', { transaction_id: 't2', amount: 1000.01 })]);
      // Offer 2 (5 %, min 1000) paid t2 100.00; 999.99 left is below its minimum.
      expect(r.adjustments.map((a) => [a.offer_id, a.previous_cashback, a.cashback])).toEqual([
        [2, 100, 0],
      ]);
    });

    test('a call without adjustments writes no event and still stores its returns', async () => {
      const engine = await paid();
      const r = await engine.addReturns(A, [
        ret('late', { date: '2025-07-01T00:00:00', amount: 1 }),
      ]);
      expect(r.errors).toEqual({
        late: 'Returned on 2025-07-01, on or after the payment day 2025-06-16: the cashback stands',
      });
      expect((await engine.store.outbox.list(A, { limit: 10 })).map((e) => e.type)).toEqual([
        'cashback.created',
      ]);
      expect(await engine.store.returns.existing(A, ['late'])).toEqual(['late']);
      await expect(engine.addReturns(A, {} as never)).rejects.toThrow(/returns must be an array/);
      await expect(engine.addReturns('', [])).rejects.toThrow(TypeError);
    });
  });
}

/**
 * Calls that race: on one transaction they wait for each other (each decides under the hold of
 * its transactions, docs/engine.md, addReturns), on one return id of two transactions the later
 * is decided again.
 */
function raceTests(kit: Kit, concurrentUnits: boolean): void {
  const { paid } = kit;
  describe('addReturns racing', () => {
    /** A store that counts its units of work. */
    function counting(inner: Store) {
      const seen = { units: 0 };
      const store: Store = {
        ...inner,
        transaction: (fn) => {
          seen.units++;
          return inner.transaction(fn);
        },
      };
      return { store, seen };
    }

    test('calls returning one transaction at once wait for each other: each decides on what the other stored, none again', async () => {
      const base = await paid();
      const a = counting(base.store);
      const b = counting(base.store);
      const [ra, rb] = await Promise.all([
        createEngine({ clock: () => new Date(NOON), store: a.store, ids: counter('a') }).addReturns(
          A,
          [ret('r1', { amount: 60 })],
        ),
        createEngine({ clock: () => new Date(NOON), store: b.store, ids: counter('b') }).addReturns(
          A,
          [ret('r2', { amount: 50 })],
        ),
      ]);
      expect([a.seen.units, b.seen.units]).toEqual([1, 1]);
      const codes = [...ra.details.errors, ...rb.details.errors].map((e) => e.code);
      expect(codes).toEqual(['return_exceeds_amount']);
      const stored = await base.store.returns.ofTransactions(A, ['t1']);
      expect(stored).toHaveLength(1);
    });

    test('sixty calls of one return each on one transaction all succeed, none thrown', async () => {
      const base = await paid();
      const engines = Array.from({ length: 4 }, (_, k) =>
        createEngine({ clock: () => new Date(NOON), store: base.store, ids: counter(`e${k}`) }),
      );
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          (engines[i % 4] as CashbackEngine).addReturns(A, [ret(`r${i}`, { amount: 1 })]),
        ),
      );
      expect(results.flatMap((r) => r.details.errors)).toEqual([]);
      expect(results.flatMap((r) => r.adjustments)).toHaveLength(60);
      const [total] = await base.store.returns.hold(A, ['t1']);
      expect(total).toEqual({ transaction_id: 't1', amount: expect.any(String), count: 60 });
      expect(new Money(total?.amount ?? '0').eq(60)).toBe(true);
      expect(await listed(base)).toEqual({ t1: 2 });
    });

    test('a return reads what its transaction had returned as one total, never the returns before it', async () => {
      const base = await paid();
      for (let i = 0; i < 5; i++) {
        await base.addReturns(
          A,
          Array.from({ length: 40 }, (_, j) => ret(`early-${i}-${j}`, { amount: '0.01' })),
        );
      }
      let returnsRead = 0;
      const store: Store = {
        ...base.store,
        returns: {
          ...base.store.returns,
          ofTransactions: async (partner, ids) => {
            const read = await base.store.returns.ofTransactions(partner, ids);
            returnsRead += read.length;
            return read;
          },
        },
        transaction: (fn) =>
          base.store.transaction((s) =>
            fn({
              ...s,
              returns: {
                ...s.returns,
                ofTransactions: async (partner, ids) => {
                  const read = await s.returns.ofTransactions(partner, ids);
                  returnsRead += read.length;
                  return read;
                },
              },
            }),
          ),
      };
      const r = await createEngine({
        clock: () => new Date(NOON),
        store,
        ids: counter('late'),
      }).addReturns(A, [ret('one-more', { amount: 1 })]);
      expect(r.adjustments).toHaveLength(1);
      expect(returnsRead).toBe(0);
      expect(await base.store.returns.hold(A, ['t1'])).toEqual([
        { transaction_id: 't1', amount: expect.any(String), count: 201 },
      ]);
    });

    test.runIf(concurrentUnits)(
      'a racing call that stores the same return id of another transaction first: this one is decided again, a duplicate',
      async () => {
        const base = await paid();
        await base.addTransactions(A, [tx({ transaction_id: 't2', amount: 100 })]);
        const other = createEngine({
          clock: () => new Date(NOON),
          store: base.store,
          ids: counter('other'),
        });
        let raced = false;
        let units = 0;
        const store: Store = {
          ...base.store,
          transaction: (fn) => {
            units++;
            return base.store.transaction((s) =>
              fn({
                ...s,
                returns: {
                  ...s.returns,
                  // After this unit read which return ids are stored, a racing call stores one.
                  existing: async (partner, ids) => {
                    const read = await s.returns.existing(partner, ids);
                    if (!raced) {
                      raced = true;
                      await other.addReturns(A, [ret('r1', { transaction_id: 't2', amount: 50 })]);
                    }
                    return read;
                  },
                },
              }),
            );
          },
        };
        const engine = createEngine({ store, ids: counter('mine'), clock: () => new Date(NOON) });
        const r = await engine.addReturns(A, [ret('r1', { amount: 10 })]);
        expect(r.details.errors.map((e) => e.code)).toEqual(['duplicate_return']);
        expect(units).toBe(2);
        expect(await listed(engine)).toEqual({ t1: 4.9, t2: 2.5 });
      },
    );

    test('engines sending returns of one transaction at once never return more than bought', async () => {
      const base = await paid();
      const engines = Array.from({ length: 4 }, (_, k) =>
        createEngine({ clock: () => new Date(NOON), store: base.store, ids: counter(`e${k}`) }),
      );
      const results = await Promise.all(
        engines.map((e, k) =>
          e.addReturns(A, [ret(`r${k}`, { amount: 30 }), ret('same', { amount: 1 })]),
        ),
      );
      const stored = await base.store.returns.ofTransactions(A, ['t1']);
      const total = stored.reduce((s, x) => s.plus(x.amount), new Money(0));
      expect(total.lte(100)).toBe(true);
      expect(stored.filter((x) => x.return_id === 'same')).toHaveLength(1);
      const adjustedSame = results
        .flatMap((r) => r.adjustments)
        .filter((a) => a.return_id === 'same');
      expect(adjustedSame).toHaveLength(1);
      expect(
        results.flatMap((r) => r.details.errors).filter((e) => e.code === 'return_exceeds_amount'),
      ).toHaveLength(1);
    });
  });
}

/** The invariants of returns, as a property. */
function invariantTests(kit: Kit, propertyRuns: number): void {
  const { paid, closeAll } = kit;
  describe('addReturns invariants', () => {
    const returnArb = fc.record({
      id: fc.integer({ min: 0, max: 12 }),
      tx: fc.constantFrom('t1', 't2', 'h1', 'nowhere'),
      day: fc.integer({ min: 1, max: 30 }),
      amount: fc.option(
        fc.integer({ min: 1, max: 6000 }).map((c) => (c / 100).toFixed(2)),
        {
          nil: undefined,
        },
      ),
    });

    test('a return never raises a payment; net cashback is the sum of current payments; never more returned than bought', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(returnArb, { maxLength: 5 }), { maxLength: 4 }),
          async (calls) => {
            const engine = await paid();
            await engine.addTransactions(A, [tx({ transaction_id: 't2', amount: '37.37' })]);
            await engine.addHistory(A, [history({ transaction_id: 'h1', amount: 20 })]);
            const amounts: Record<string, string> = { t1: '100', t2: '37.37', h1: '20' };
            const paidAtFirst = new Money(4.9).plus(1.87);
            let adjustedOff = new Money(0);
            for (const call of calls) {
              const r = await engine.addReturns(
                A,
                call.map((c) => ({
                  return_id: `r${c.id}`,
                  transaction_id: c.tx,
                  date: `2025-06-${String(c.day).padStart(2, '0')}T12:00:00`,
                  ...(c.amount === undefined ? {} : { amount: c.amount }),
                })),
              );
              for (const a of r.adjustments) {
                expect(a.cashback).toBeLessThanOrEqual(a.previous_cashback);
                adjustedOff = adjustedOff.plus(a.previous_cashback).minus(a.cashback);
              }
            }
            const current = await engine.store.payments.get(A, ['t1', 't2']);
            const sum = current.reduce((s, p) => s.plus(p.cashback_amount), new Money(0));
            expect(sum.toFixed()).toBe(paidAtFirst.minus(adjustedOff).toFixed());
            expect(
              Number(current.find((p) => p.transaction_id === 't1')?.cashback_amount),
            ).toBeLessThanOrEqual(4.9);
            expect(
              Number(current.find((p) => p.transaction_id === 't2')?.cashback_amount),
            ).toBeLessThanOrEqual(1.87);
            const page = await engine.listPayments(A, EVERYTHING);
            expect(page.total_count).toBe(
              current.filter((p) => Number(p.cashback_amount) > 0).length,
            );
            const stored = await engine.store.returns.ofTransactions(A, ['t1', 't2', 'h1']);
            for (const [id, amount] of Object.entries(amounts)) {
              const returned = stored
                .filter((x) => x.transaction_id === id)
                .reduce((s, x) => s.plus(x.amount), new Money(0));
              expect(returned.lte(amount)).toBe(true);
            }
            await closeAll();
          },
        ),
        { numRuns: propertyRuns },
      );
    });
  });
}
