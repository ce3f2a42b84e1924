/**
 * Funding counters on a PostgreSQL server, beyond the conformance suite (docs/postgres.md,
 * Funding counters): units holding the same counters named in opposite orders wait for each
 * other and never deadlock (no unit is run again), and units holding caps of different customers
 * do not wait for each other; batches flooding a held budget leave the pool to other partners.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import type { FundingRange, Store } from '../../src/store/entry.js';
import { customer, offer, tx } from '../fixtures.js';
import { SKIP_SERVER, warnWhenSkipped } from './_databases.js';
import { freshServerStores } from './_freshStores.js';

warnWhenSkipped('the lock order of funding counters on a PostgreSQL server');

const P = 'bank-a';
const DAY = '2025-03-10';
const UNITS = 12;
const EVERY_DAY = { from: '0000-01-01', to: '9999-12-31' };

const cap = (customer: string | null): FundingRange => ({
  offer_id: 1,
  customer_id: customer,
  from: DAY,
  to: DAY,
});
const change = (customer: string | null) => ({
  offer_id: 1,
  customer_id: customer,
  day: DAY,
  amount: '0.01',
  count: 1,
});

describe.skipIf(SKIP_SERVER)('funding counters on a PostgreSQL server', () => {
  const fresh = freshServerStores();
  let store: Store | undefined;
  afterEach(() => store?.close?.());

  it('units holding the same counters in opposite orders wait for each other, never deadlock', async () => {
    store = await fresh();
    const s = store;
    let runs = 0;
    const scopes = [null, 'c1', 'c2'];
    await Promise.all(
      Array.from({ length: UNITS }, (_, k) =>
        s.transaction(async (u) => {
          runs++;
          const named = k % 2 === 0 ? scopes : [...scopes].reverse();
          await u.funding.hold(P, named.map(cap));
          await new Promise((r) => setTimeout(r, k % 3));
          await u.funding.add(P, [...named].reverse().map(change));
        }),
      ),
    );
    // A deadlock would have run a unit again (sqlStore.ts): every unit ran once.
    expect(runs).toBe(UNITS);
    expect(await s.funding.hold(P, scopes.map(cap))).toEqual(
      scopes.map(() => ({ amount: '0.12', count: UNITS })),
    );
  });

  it('a unit holding one customer’s cap does not wait for a unit holding another’s', async () => {
    store = await fresh();
    const s = store;
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let held: () => void = () => undefined;
    const holding = new Promise<void>((r) => {
      held = r;
    });
    const first = s.transaction(async (u) => {
      await u.funding.hold(P, [cap('c1')]);
      held();
      await released;
      await u.funding.add(P, [change('c1')]);
    });
    try {
      await holding;
      // Resolves while the first unit is open: no timer needed to tell.
      await s.transaction(async (u) => {
        await u.funding.hold(P, [cap('c2')]);
        await u.funding.add(P, [change('c2')]);
      });
      expect(await s.funding.hold(P, [cap('c1'), cap('c2')])).toEqual([
        { amount: '0', count: 0 },
        { amount: '0.01', count: 1 },
      ]);
    } finally {
      release();
      await first;
    }
  });

  it('a partner flooding a budget another unit holds leaves the pool to other partners’ batches', async () => {
    store = await fresh();
    const s = store;
    const engine = createEngine({ store: s });
    await engine.upsertOffers([
      offer({ merchant_name: 'Hot', budget: { amount: 1_000_000 } }),
      offer({ offer_id: 2, merchant_name: 'Cold' }),
    ]);
    for (const partner of ['bank-a', 'bank-b']) await engine.upsertCustomers(partner, [customer()]);
    const at = (merchant: string, id: string) =>
      tx({ transaction_id: id, merchant: { id: 'm', name: merchant, category_code: '5812' } });
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let held: () => void = () => undefined;
    const holding = new Promise<void>((r) => {
      held = r;
    });
    // Another instance's unit holds the budget: every batch at Hot waits for it.
    const blocker = s.transaction(async (u) => {
      await u.funding.hold('bank-a', [{ offer_id: 1, customer_id: null, ...EVERY_DAY }]);
      held();
      await released;
    });
    let flood: Promise<unknown> = Promise.resolve();
    try {
      await holding;
      // Twice the pool (10 connections): without a gate, their units would take every one.
      flood = Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          engine.addTransactions('bank-a', [at('Hot', `h${i}`)]),
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
      // Answered while the budget is held; starved, it would wait for the release.
      const starved = new Promise<never>((_, reject) => {
        setTimeout(() => reject(new Error('bank-b was starved of connections')), 10_000).unref();
      });
      const cold = await Promise.race([
        engine.addTransactions('bank-b', [at('Cold', 'c1')]),
        starved,
      ]);
      expect(cold.payments).toHaveLength(1);
    } finally {
      release();
      await blocker;
    }
    const hot = (await flood) as { payments: unknown[] }[];
    expect(hot.flatMap((r) => r.payments)).toHaveLength(20);
  });
});
