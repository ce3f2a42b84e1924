/**
 * Funding counters on a PostgreSQL server, beyond the conformance suite (docs/postgres.md,
 * Funding counters): units holding the same counters named in opposite orders wait for each
 * other and never deadlock (no unit is run again), and units holding caps of different customers
 * do not wait for each other.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FundingRange, Store } from '../../src/store/entry.js';
import { SKIP_SERVER, warnWhenSkipped } from './_databases.js';
import { freshServerStores } from './_freshStores.js';

warnWhenSkipped('the lock order of funding counters on a PostgreSQL server');

const P = 'bank-a';
const DAY = '2025-03-10';
const UNITS = 12;

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
});
