/**
 * Budgets and caps through the engine and its store (docs/engine.md, Budgets and caps racing):
 * payments limited by what is left, budgets shared by partners, a return giving back, offers
 * listing the fields, `explain`, and concurrent calls of two partners and two engines on one store
 * that never pay past a budget or a cap. Shared by every store: the memory store
 * (test/engine/funding.test.ts), PGlite and a PostgreSQL server (test/postgres/funding.test.ts).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { type CashbackEngine, createEngine } from '../../src/engine/entry.js';
import { Money } from '../../src/index.js';
import type { FundingRecount, Store } from '../../src/store/entry.js';
import { customer, offer, tx } from '../fixtures.js';

const A = 'bank-a';
const B = 'bank-b';
const NOON = '2025-06-01T12:00:00.000Z';
const EVERYTHING = { date_from: '0001-01-01', date_to: '9999-12-31', page_size: 1000 };

/** Counting event ids `<prefix>-1`, `<prefix>-2`, … */
function counter(prefix = 'evt'): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

/** `n` transactions `<prefix>1…` of customer `c`, 40.00 each, on 2025-06-02. */
function batch(prefix: string, n: number, c = 'c1', amount: number | string = 40) {
  return Array.from({ length: n }, (_, i) =>
    tx({
      transaction_id: `${prefix}${i + 1}`,
      customer_id: c,
      amount,
      date: `2025-06-02T09:${String(i % 60).padStart(2, '0')}:00`,
    }),
  );
}

/** The listing's payments of a partner: cashback by transaction id. */
async function listed(engine: CashbackEngine, partner: string): Promise<number[]> {
  const page = await engine.listPayments(partner, EVERYTHING);
  return page.transactions.map((p) => p.cashback_amount);
}

/** The exact sum of cashback amounts. */
function sum(amounts: readonly (number | string)[]): string {
  return amounts.reduce<InstanceType<typeof Money>>((s, a) => s.plus(a), new Money(0)).toFixed(2);
}

/**
 * The tests, on engines over stores from `createStore`: each call gives a new, empty store,
 * closed after the test.
 * @param createStore - a fresh, empty store
 * @param runs - runs of the property test
 */
export function describeFundingOnStore(createStore: () => Promise<Store>, runs: number): void {
  const opened: Store[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close?.();
  });

  async function engineWith(offers: readonly unknown[], store?: Store): Promise<CashbackEngine> {
    let s = store;
    if (s === undefined) {
      s = await createStore();
      opened.push(s);
    }
    const engine = createEngine({ store: s, clock: () => new Date(NOON), ids: counter() });
    await engine.upsertOffers(offers);
    for (const p of [A, B]) {
      await engine.upsertCustomers(p, [
        customer(),
        customer({ customer_id: 'c2' }),
        customer({ customer_id: 'c3' }),
      ]);
    }
    return engine;
  }

  describe('budgets and caps through the engine', () => {
    test('a budget pays partially, then fails; it is shared by the partners', async () => {
      const engine = await engineWith([offer({ discount: 10, budget: { amount: 10 } })]);
      const a = await engine.addTransactions(A, batch('a', 2));
      expect(a.payments.map((p) => p.cashback)).toEqual([4, 4]);
      const b = await engine.addTransactions(B, batch('b', 2));
      expect(b.payments.map((p) => p.cashback)).toEqual([2]);
      expect(b.details.errors[0]?.message).toMatch(/failed its budget check/);
      expect(sum([...(await listed(engine, A)), ...(await listed(engine, B))])).toBe('10.00');
    });

    test('a cap by count and amount per day, per partner and customer', async () => {
      const engine = await engineWith([
        offer({ discount: 10, customer_cap: { amount: 7, count: 3, period: 'day' } }),
      ]);
      const a = await engine.addTransactions(A, batch('a', 3));
      expect(a.payments.map((p) => p.cashback)).toEqual([4, 3]);
      expect(a.details.errors[0]?.message).toMatch(/failed its customer_cap check/);
      const b = await engine.addTransactions(B, batch('b', 1));
      expect(b.payments.map((p) => p.cashback)).toEqual([4]);
      const next = await engine.addTransactions(A, [
        tx({ transaction_id: 'n1', amount: 40, date: '2025-06-03T09:00:00' }),
      ]);
      expect(next.payments.map((p) => p.cashback)).toEqual([4]);
    });

    test('a batch holds the budget a later item reads once an earlier one is refused', async () => {
      const engine = await engineWith([
        offer({
          discount: 10,
          budget: { amount: 4, period: 'day' },
          customer_cap: { count: 1, period: 'week' },
        }),
      ]);
      // c2 spends Monday's budget; then c1's Monday purchase finds nothing left, so its Tuesday
      // purchase is c1's first payment of the week and reads Tuesday's budget.
      await engine.addTransactions(A, batch('m', 1, 'c2'));
      const r = await engine.addTransactions(A, [
        tx({ transaction_id: 'mon', amount: 40, date: '2025-06-02T10:00:00' }),
        tx({ transaction_id: 'tue', amount: 40, date: '2025-06-03T10:00:00' }),
      ]);
      expect(r.payments).toEqual([
        { cashback: 4, payment_date: '2025-06-17', transaction_id: 'tue' },
      ]);
      expect(r.details.errors[0]?.message).toMatch(/failed its budget check/);
    });

    test('a return gives back to the budget and the cap', async () => {
      const engine = await engineWith([
        offer({ discount: 10, budget: { amount: 4 }, customer_cap: { count: 1, period: 'offer' } }),
      ]);
      await engine.addTransactions(A, batch('a', 1));
      const refused = await engine.addTransactions(A, batch('x', 1));
      expect(refused.payments).toEqual([]);
      const r = await engine.addReturns(A, [
        { return_id: 'r1', transaction_id: 'a1', date: '2025-06-03T10:00:00' },
      ]);
      expect(r.adjustments).toHaveLength(1);
      const again = await engine.addTransactions(A, batch('y', 1));
      expect(again.payments.map((p) => p.cashback)).toEqual([4]);
    });

    test('an offer that gains a budget and a cap on a reload counts what it paid before', async () => {
      const plain = offer({ discount: 10 });
      const engine = await engineWith([plain]);
      await engine.addTransactions(A, batch('a', 2));
      await engine.addTransactions(B, batch('b', 1));
      // A payment brought to 0 by a return counts for nothing.
      await engine.addReturns(B, [
        { return_id: 'r1', transaction_id: 'b1', date: '2025-06-03T10:00:00' },
      ]);
      await engine.upsertOffers([
        { ...plain, budget: { amount: 14 }, customer_cap: { count: 3, period: 'offer' } },
      ]);
      const a = await engine.addTransactions(A, batch('x', 2));
      // c1 of A has 2 payments (8.00 of the 14.00): one more by the cap, 4.00 of the 6.00 left.
      expect(a.payments.map((p) => p.cashback)).toEqual([4]);
      expect(a.details.errors[0]?.message).toMatch(/customer_cap/);
      const b = await engine.addTransactions(B, batch('y', 1));
      expect(b.payments.map((p) => p.cashback)).toEqual([2]);
      // Unchanged afterwards: a second reload with the same fields recounts nothing.
      await engine.upsertOffers([
        {
          ...plain,
          name: 'renamed',
          budget: { amount: 14 },
          customer_cap: { count: 3, period: 'offer' },
        },
      ]);
      const c = await engine.addTransactions(B, batch('z', 1, 'c2'));
      expect(c.payments).toEqual([]);
      expect(c.details.errors[0]?.message).toMatch(/budget/);
    });

    test('a reload recounts only the limits an offer gains: a renamed or changed funded offer is not recounted', async () => {
      const inner = await createStore();
      opened.push(inner);
      const recounts: FundingRecount[] = [];
      const store: Store = {
        ...inner,
        transaction: (fn) =>
          inner.transaction((s) =>
            fn({
              ...s,
              funding: {
                ...s.funding,
                recount: async (query) => {
                  recounts.push(query);
                  await s.funding.recount(query);
                },
              },
            }),
          ),
      };
      const funded = offer({ discount: 10, budget: { amount: 14 } });
      const engine = await engineWith([funded], store);
      await engine.addTransactions(A, batch('a', 2));
      await engine.upsertOffers([
        { ...funded, name: 'renamed', merchant_logo: 'https://x.test/l.png' },
      ]);
      await engine.upsertOffers([{ ...funded, budget: { amount: 20, period: 'month' } }]);
      expect(recounts).toEqual([]);
      await engine.upsertOffers([
        {
          ...funded,
          budget: { amount: 20, period: 'month' },
          customer_cap: { count: 5, period: 'week' },
        },
      ]);
      expect(recounts).toEqual([{ budgets: [], caps: [1] }]);
      // What the offer paid still counts: 8.00 of the 20.00, so 12.00 are left.
      const r = await engine.addTransactions(B, batch('b', 4, 'c2'));
      expect(r.payments.map((p) => p.cashback)).toEqual([4, 4, 4]);
    });

    test('offers list the fields, amounts as numbers; explain says what is left', async () => {
      const engine = await engineWith([
        offer({
          discount: 10,
          budget: { amount: '10.50' },
          customer_cap: { count: 2, period: 'week' },
        }),
      ]);
      const offers = await engine.activeOffers();
      expect(offers[0]).toMatchObject({
        budget: { amount: 10.5, period: 'offer' },
        customer_cap: { count: 2, period: 'week' },
      });
      await engine.addTransactions(A, batch('a', 1));
      const e = await engine.explain(A, batch('z', 1)[0]);
      expect(e.candidates[0]).toMatchObject({
        matched: true,
        cashback: 4,
        funding: { cap_count_left: 1, budget_left: 6.5 },
      });
    });
  });

  describe('budgets and caps racing', () => {
    test('two partners and two engines never pay past a budget, to the cent', async () => {
      const store = await createStore();
      opened.push(store);
      const offers = [
        offer({ discount: 10, budget: { amount: '25.37' } }),
        offer({ offer_id: 2, discount: 1 }),
      ];
      const one = await engineWith(offers, store);
      const two = createEngine({ store, clock: () => new Date(NOON), ids: counter('two') });
      const calls = [];
      for (let i = 0; i < 8; i++) {
        const engine = i % 2 === 0 ? one : two;
        const partner = i % 4 < 2 ? A : B;
        calls.push(engine.addTransactions(partner, batch(`k${i}-`, 3, `c${(i % 3) + 1}`)));
      }
      const results = await Promise.all(calls);
      const paidBy1 = results.flatMap((r) =>
        r.details.payments.filter((p) => p.offer_id === 1).map((p) => p.cashback),
      );
      expect(sum(paidBy1)).toBe('25.37');
      // Every transaction is paid: by offer 1 while it lasts, then by offer 2.
      expect(results.flatMap((r) => r.payments)).toHaveLength(24);
    });

    test('a reload that gives an offer a budget while calls pay from it', async () => {
      const store = await createStore();
      opened.push(store);
      const plain = offer({ discount: 10 });
      const engine = await engineWith([plain], store);
      const reloader = createEngine({ store, clock: () => new Date(NOON), ids: counter('reload') });
      let budget = '';
      let reloaded: Promise<unknown> | undefined;
      let next = 0;
      const client = async () => {
        for (let b = next++; b < 24; b = next++) {
          const partner = b % 2 === 0 ? A : B;
          await engine.addTransactions(partner, batch(`r${b}-`, 6, `c${(b % 3) + 1}`));
          if (b === 6) {
            // What is paid by now and 100.00 more, while the other clients go on paying: what a
            // call decided on the offer without its budget pays must be counted, and what is
            // paid after the reload must not pass the budget once the counters have reached it.
            const paid = [...(await listed(engine, A)), ...(await listed(engine, B))];
            budget = new Money(sum(paid)).plus(100).toFixed(2);
            reloaded = reloader.upsertOffers([{ ...plain, budget: { amount: budget } }]);
          }
        }
      };
      await Promise.all([client(), client(), client(), client()]);
      await reloaded;
      const paid = [...(await listed(engine, A)), ...(await listed(engine, B))];
      const all = { from: '0001-01-01', to: '9999-12-31' };
      const [counted] = await store.funding.hold(A, [{ offer_id: 1, customer_id: null, ...all }]);
      // The counters hold every payment, those of calls in flight during the reload included.
      expect(new Money(counted?.amount ?? 'NaN').toFixed(2)).toBe(sum(paid));
      expect(counted?.count).toBe(paid.length);
      // So a budget reached is a budget that pays no more.
      if (new Money(sum(paid)).gte(budget)) {
        const after = await engine.addTransactions(A, batch('after-', 1));
        expect(after.payments).toEqual([]);
      }
    });

    test('property: concurrent calls pay min(budget, demand) and no customer passes the cap', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 2 })), {
            minLength: 1,
            maxLength: 6,
          }),
          fc.integer({ min: 1, max: 3000 }),
          async (calls, budgetCents) => {
            const store = await createStore();
            opened.push(store);
            const budget = new Money(budgetCents).div(100).toFixed(2);
            const engine = await engineWith(
              [
                offer({
                  discount: 10,
                  budget: { amount: budget, period: 'day' },
                  customer_cap: { amount: 9, count: 3, period: 'offer' },
                }),
              ],
              store,
            );
            const results = await Promise.all(
              calls.map(([n, c], i) =>
                engine.addTransactions(i % 2 === 0 ? A : B, batch(`p${i}-`, n, `c${c + 1}`, 33)),
              ),
            );
            const payments = results.flatMap((r) => r.details.payments);
            const byCustomer = new Map<string, number[]>();
            results.forEach((r, i) => {
              for (const p of r.details.payments) {
                const key = `${i % 2}/${p.customer_id}`;
                byCustomer.set(key, [...(byCustomer.get(key) ?? []), p.cashback]);
              }
            });
            for (const paid of byCustomer.values()) {
              expect(paid.length).toBeLessThanOrEqual(3);
              expect(new Money(sum(paid)).lte(9)).toBe(true);
            }
            const total = new Money(sum(payments.map((p) => p.cashback)));
            expect(total.lte(budget)).toBe(true);
            // Every customer's cap allows 9.00 in 3 payments of 3.30; a customer left unpaid
            // means the budget is spent to the cent.
            const unpaid = results.some((r) => r.details.errors.length > 0);
            if (unpaid && [...byCustomer.values()].every((p) => p.length < 3)) {
              expect(total.toFixed(2)).toBe(budget);
            }
          },
        ),
        { numRuns: runs, seed: 29 },
      );
    });
  });
}
