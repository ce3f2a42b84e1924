/**
 * Concurrent requests with overlapping transaction ids, on one engine and on two engines sharing
 * one store (docs/stores.md): exactly one payment per paid id, and every other copy reported as
 * `duplicate_transaction`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AddTransactionsResult,
  type CashbackEngine,
  createEngine,
  createMemoryStore,
  type Store,
} from '../../src/index.js';

const OFFER = {
  offer_id: 1,
  name: 'Coffee',
  merchant_name: 'Coffee House',
  warranty: 7,
  discount: 10,
  valid_from: '2025-01-01',
  valid_to: '2025-12-31',
};

const CUSTOMER = {
  customer_id: 'c1',
  birthday: '1990-05-05',
  gender: 'female',
  location: { country: 'FR', city: 'Paris' },
};

function tx(id: string) {
  return {
    transaction_id: id,
    description: 'coffee',
    customer_id: 'c1',
    date: '2025-03-01T09:00:00',
    amount: 10,
    merchant: { id: 'm1', name: 'Coffee House', category_code: '5814' },
    location: { country: 'FR', city: 'Paris' },
  };
}

/** Engines over one store, with distinct event ids across them. */
async function engines(count: number, store: Store): Promise<CashbackEngine[]> {
  let n = 0;
  const made = Array.from({ length: count }, () =>
    createEngine({ store, ids: () => `event-${++n}` }),
  );
  await made[0]?.upsertOffers([OFFER]);
  await made[0]?.upsertCustomers('bank-a', [CUSTOMER]);
  return made;
}

/** Every id paid in exactly one response, and a duplicate in every other response naming it. */
function expectExactlyOnce(requests: readonly string[][], results: AddTransactionsResult[]): void {
  const paidBy = new Map<string, number>();
  results.forEach((r, i) => {
    for (const p of r.payments)
      paidBy.set(p.transaction_id, (paidBy.get(p.transaction_id) ?? 0) + 1);
    const sent = requests[i] as string[];
    const paidHere = new Set(r.payments.map((p) => p.transaction_id));
    for (const e of r.details.errors) expect(e.code).toBe('duplicate_transaction');
    // Each item has one outcome: paid here, or a duplicate (of a copy stored here or elsewhere).
    expect(r.payments.length + r.details.errors.length).toBe(sent.length);
    for (const id of sent) {
      if (!paidHere.has(id))
        expect(r.errors[id]).toBe(`Transaction '${id}' is already in the service`);
    }
  });
  const distinct = new Set(requests.flat());
  expect([...paidBy.keys()].sort()).toEqual([...distinct].sort());
  for (const count of paidBy.values()) expect(count).toBe(1);
}

describe('concurrent addTransactions with overlapping ids', () => {
  it('pays each id once, on one engine or several sharing a store, in any mix of requests', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 24 }), { maxLength: 12 }), {
          minLength: 2,
          maxLength: 16,
        }),
        fc.integer({ min: 1, max: 3 }),
        async (draws, engineCount) => {
          const store = createMemoryStore();
          const pool = await engines(engineCount, store);
          const requests = draws.map((ids) => ids.map((i) => `t${i}`));
          const results = await Promise.all(
            requests.map((ids, i) =>
              (pool[i % pool.length] as CashbackEngine).addTransactions('bank-a', ids.map(tx)),
            ),
          );
          expectExactlyOnce(requests, results);
          const listed = await (pool[0] as CashbackEngine).listPayments('bank-a', {
            date_from: '2025-01-01',
            date_to: '2025-12-31',
            page_size: 1000,
          });
          expect(listed.total_count).toBe(new Set(requests.flat()).size);
          const events = await store.outbox.list('bank-a', { limit: 1000 });
          const recorded = events.flatMap(
            (e) => (e.payload.data as { records: { transaction_id: string }[] }).records,
          );
          expect(recorded.map((r) => r.transaction_id).sort()).toEqual(
            [...new Set(requests.flat())].sort(),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('decides again when a racing request stored its ids first (ten identical requests at once)', async () => {
    const store = createMemoryStore();
    let units = 0;
    const counting: Store = {
      ...store,
      transaction: (fn) => {
        units++;
        return store.transaction(fn);
      },
    };
    const [engine] = await engines(1, counting);
    units = 0;
    const ids = ['a', 'b', 'c'];
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        (engine as CashbackEngine).addTransactions('bank-a', ids.map(tx)),
      ),
    );
    expectExactlyOnce(
      Array.from({ length: 10 }, () => ids),
      results,
    );
    // All ten read the state before any committed: nine lost the race once and decided again.
    expect(units).toBe(19);
    expect(results.filter((r) => r.payments.length === 3)).toHaveLength(1);
  });

  it('stores an id sent at once as history and as a transaction exactly once', async () => {
    const store = createMemoryStore();
    const [engine] = await engines(1, store);
    const e = engine as CashbackEngine;
    const [history, submitted] = await Promise.all([
      e.addHistory('bank-a', [tx('x')]),
      e.addTransactions('bank-a', [tx('x')]),
    ]);
    const stored = Object.keys(history.errors).length === 0 ? 'history' : 'transaction';
    if (stored === 'history') {
      expect(submitted.errors).toEqual({ x: "Transaction 'x' is already in the service" });
    } else {
      expect(history.errors).toEqual({ x: "Transaction 'x' is already in the service" });
      expect(submitted.payments).toHaveLength(1);
    }
    expect(await store.transactions.existing('bank-a', ['x'])).toEqual(['x']);
  });
});

describe('concurrent calls and the history they decide on', () => {
  const NEW_ONLY = { ...OFFER, offer_id: 2, audience: 'new' as const };
  const RETURNING = { ...OFFER, offer_id: 3, audience: 'returning' as const, discount: 20 };
  const at = (id: string, time: string) => ({ ...tx(id), date: `2025-03-01T${time}` });

  /**
   * A memory store whose first lookback read answers, then lets another engine upload `racing`
   * as history before the reader goes on: the batch is decided on a state that is no longer
   * current. Counts units of work.
   */
  function interposing(racing: Record<string, unknown>[]) {
    const inner = createMemoryStore();
    const other = createEngine({ store: inner });
    const seen = { interposed: false, units: 0 };
    const store: Store = {
      ...inner,
      transaction: (fn) => {
        seen.units++;
        return inner.transaction(fn);
      },
      transactions: {
        ...inner.transactions,
        purchases: async (partner, query) => {
          const read = await inner.transactions.purchases(partner, query);
          if (!seen.interposed) {
            seen.interposed = true;
            await other.addHistory('bank-a', racing);
          }
          return read;
        },
      },
    };
    return { store, seen };
  }

  it('pays a new-customers offer once when first purchases arrive at once, on one engine or several', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 1, max: 3 }),
        async (calls, engineCount) => {
          const store = createMemoryStore();
          let n = 0;
          const made = Array.from({ length: engineCount }, () =>
            createEngine({ store, ids: () => `event-${++n}` }),
          );
          const first = made[0] as CashbackEngine;
          await first.upsertOffers([NEW_ONLY]);
          await first.upsertCustomers('bank-a', [CUSTOMER]);
          const results = await Promise.all(
            Array.from({ length: calls }, (_, k) =>
              (made[k % engineCount] as CashbackEngine).addTransactions('bank-a', [
                at(`t${k}`, `0${k}:00:00`),
              ]),
            ),
          );
          // Whatever the order they were stored in, only the first purchase is a new customer's.
          const paid = results.flatMap((r) => r.payments);
          expect(paid).toHaveLength(1);
          for (const r of results) {
            for (const e of r.details.errors) expect(e.code).toBe('no_offer');
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('does not decide again for a racing purchase that cannot be history for the batch', async () => {
    const LOOKBACK = { ...RETURNING, lookback_days: 30 };
    // Stored between the read and the commit: one after the batch's latest item at that pair,
    // one more than the lookback before its earliest item.
    const { store, seen } = interposing([
      { ...at('late', '12:00:00'), date: '2025-03-01T12:00:00' },
      { ...at('old', '08:00:00'), date: '2025-01-15T08:00:00' },
    ]);
    const engine = createEngine({ store });
    await engine.upsertOffers([LOOKBACK]);
    await engine.upsertCustomers('bank-a', [CUSTOMER]);
    seen.units = 0;
    const r = await engine.addTransactions('bank-a', [at('t1', '09:00:00'), at('t2', '10:00:00')]);
    expect(seen.interposed).toBe(true);
    expect(seen.units).toBe(1);
    // t2 has t1 as history; neither racing purchase counts for either.
    expect(r.details.payments.map((p) => p.transaction_id)).toEqual(['t2']);
  });

  it('decides again when history stored between its read and its commit makes the customer returning', async () => {
    const { store, seen } = interposing([at('h1', '08:00:00')]);
    const engine = createEngine({ store });
    await engine.upsertOffers([RETURNING]);
    await engine.upsertCustomers('bank-a', [CUSTOMER]);
    const r = await engine.addTransactions('bank-a', [at('t1', '09:00:00')]);
    expect(seen.interposed).toBe(true);
    expect(r.errors).toEqual({});
    expect(r.details.payments.map((p) => [p.transaction_id, p.offer_id])).toEqual([['t1', 3]]);
  });
});
