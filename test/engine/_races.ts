/**
 * Concurrent requests with overlapping transaction ids, on one engine and on two engines sharing
 * one store (docs/stores.md): exactly one payment per paid id, and every other copy reported as
 * `duplicate_transaction`; and concurrent calls racing on the history a batch is decided on
 * (docs/engine.md, concurrency). Shared by every store's race tests: the memory store
 * (test/engine/races.test.ts), PGlite and a PostgreSQL server (test/postgres/races.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AddTransactionsResult,
  type CashbackEngine,
  createEngine,
} from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';

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

/** Runs `fn` on a fresh store from `fresh`, and closes the store after it. */
async function withStore<T>(
  fresh: () => Promise<Store>,
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await fresh();
  try {
    return await fn(store);
  } finally {
    await store.close?.();
  }
}

/** How many runs each property of {@link describeRaces} makes. */
export interface RaceRuns {
  /** Requests with overlapping ids. */
  readonly ids: number;
  /** First purchases of one customer under a new-customers offer. */
  readonly firstPurchases: number;
}

/**
 * The race tests, on engines over stores from `fresh`: each call gives a new, empty store (every
 * run of a property and every test takes one, and closes it).
 * @param fresh - a fresh, empty store
 * @param runs - how many runs each property makes
 */
export function describeRaces(fresh: () => Promise<Store>, runs: RaceRuns): void {
  describe('concurrent addTransactions with overlapping ids', () => {
    it('pays each id once, on one engine or several sharing a store, in any mix of requests', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 24 }), { maxLength: 12 }), {
            minLength: 2,
            maxLength: 16,
          }),
          fc.integer({ min: 1, max: 3 }),
          (draws, engineCount) =>
            withStore(fresh, async (store) => {
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
            }),
        ),
        { numRuns: runs.ids },
      );
    });

    it('decides again when a racing request stored its ids first (ten identical requests at once)', async () => {
      await withStore(fresh, async (store) => {
        let units = 0;
        // The first ten units wait until all ten are open, so every call has read the state
        // before any commits: the memory store runs them so anyway, a server's pool need not.
        let gate: { held: (() => void)[] } | undefined;
        const counting: Store = {
          ...store,
          transaction: async (fn) => {
            units++;
            if (gate !== undefined) {
              const { held } = gate;
              await new Promise<void>((release) => {
                held.push(release);
                if (held.length < 10) return;
                gate = undefined;
                for (const r of held) r();
              });
            }
            return store.transaction(fn);
          },
        };
        const [engine] = await engines(1, counting);
        units = 0;
        gate = { held: [] };
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
    });

    it('stores an id sent at once as history and as a transaction exactly once', async () => {
      await withStore(fresh, async (store) => {
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
  });

  describe('concurrent calls and the history they decide on', () => {
    const NEW_ONLY = { ...OFFER, offer_id: 2, audience: 'new' as const };
    const RETURNING = { ...OFFER, offer_id: 3, audience: 'returning' as const, discount: 20 };
    const at = (id: string, time: string) => ({ ...tx(id), date: `2025-03-01T${time}` });

    /**
     * `inner` whose first lookback read answers, then lets another engine upload `racing` as
     * history before the reader goes on: the batch is decided on a state that is no longer
     * current. Counts units of work.
     */
    function interposing(inner: Store, racing: Record<string, unknown>[]) {
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

    it('pays a new-customers offer to the earliest of first purchases arriving at once, and to no purchase that found an earlier one stored', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 2, max: 6 }),
          fc.integer({ min: 1, max: 3 }),
          (calls, engineCount) =>
            withStore(fresh, async (store) => {
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
              // History is what precedes a purchase in time: t0 has none, whenever it is stored,
              // and a later one is a new customer's only when stored before every earlier one
              // (in date order, one is paid; on a server the order of commits is the pool's).
              const paid = results.flatMap((r) => r.payments).map((p) => p.transaction_id);
              expect(paid).toContain('t0');
              expect(new Set(paid).size).toBe(paid.length);
              for (const r of results) {
                for (const e of r.details.errors) expect(e.code).toBe('no_offer');
              }
              const unpaid = results.flatMap((r) => r.details.errors).map((e) => e.key);
              expect([...paid, ...unpaid].sort()).toEqual(
                Array.from({ length: calls }, (_, k) => `t${k}`).sort(),
              );
              // Each paid purchase was stored before every earlier-dated one: its own event came
              // first, so the outbox lists the paid ones latest-dated first.
              const events = await store.outbox.list('bank-a', { limit: 100 });
              const order = events.flatMap((e) =>
                (e.payload.data as { records: { transaction_id: string }[] }).records.map(
                  (r) => r.transaction_id,
                ),
              );
              expect(order).toEqual([...paid].sort().reverse());
            }),
        ),
        { numRuns: runs.firstPurchases },
      );
    });

    it('pays a new-customers offer once for first purchases sent in date order, and each of them sent latest first', async () => {
      await withStore(fresh, async (store) => {
        const e = createEngine({ store });
        await e.upsertOffers([NEW_ONLY]);
        await e.upsertCustomers('bank-a', [CUSTOMER]);
        const inOrder = [];
        for (const k of [0, 1, 2])
          inOrder.push(await e.addTransactions('bank-a', [at(`a${k}`, `0${k}:00:00`)]));
        expect(inOrder.flatMap((r) => r.payments).map((p) => p.transaction_id)).toEqual(['a0']);
        const latestFirst = [];
        await e.upsertCustomers('bank-a', [{ ...CUSTOMER, customer_id: 'c2' }]);
        for (const k of [2, 1, 0]) {
          latestFirst.push(
            await e.addTransactions('bank-a', [
              { ...at(`b${k}`, `0${k}:00:00`), customer_id: 'c2' },
            ]),
          );
        }
        expect(latestFirst.flatMap((r) => r.payments).map((p) => p.transaction_id)).toEqual([
          'b2',
          'b1',
          'b0',
        ]);
      });
    });

    it('does not decide again for a racing purchase that cannot be history for the batch', async () => {
      await withStore(fresh, async (inner) => {
        const LOOKBACK = { ...RETURNING, lookback_days: 30 };
        // Stored between the read and the commit: one after the batch's latest item at that pair,
        // one more than the lookback before its earliest item.
        const { store, seen } = interposing(inner, [
          { ...at('late', '12:00:00'), date: '2025-03-01T12:00:00' },
          { ...at('old', '08:00:00'), date: '2025-01-15T08:00:00' },
        ]);
        const engine = createEngine({ store });
        await engine.upsertOffers([LOOKBACK]);
        await engine.upsertCustomers('bank-a', [CUSTOMER]);
        seen.units = 0;
        const r = await engine.addTransactions('bank-a', [
          at('t1', '09:00:00'),
          at('t2', '10:00:00'),
        ]);
        expect(seen.interposed).toBe(true);
        expect(seen.units).toBe(1);
        // t2 has t1 as history; neither racing purchase counts for either.
        expect(r.details.payments.map((p) => p.transaction_id)).toEqual(['t2']);
      });
    });

    it('decides again when history stored between its read and its commit makes the customer returning', async () => {
      await withStore(fresh, async (inner) => {
        const { store, seen } = interposing(inner, [at('h1', '08:00:00')]);
        const engine = createEngine({ store });
        await engine.upsertOffers([RETURNING]);
        await engine.upsertCustomers('bank-a', [CUSTOMER]);
        const r = await engine.addTransactions('bank-a', [at('t1', '09:00:00')]);
        expect(seen.interposed).toBe(true);
        expect(r.errors).toEqual({});
        expect(r.details.payments.map((p) => [p.transaction_id, p.offer_id])).toEqual([['t1', 3]]);
      });
    });
  });
}
