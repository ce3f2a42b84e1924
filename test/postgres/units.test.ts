/**
 * What only a database asks of units of work, on PGlite and on a server: a unit whose `fn`
 * catches a failed statement and resolves is rejected, not reported kept (PostgreSQL aborted it);
 * on a server, two units that deadlock are run again until both are kept, and a store over a
 * pool it was given leaves the pool open.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerRecord, Store } from '../../src/index.js';
import { createPgliteStore, createPostgresStore } from '../../src/store/postgres/index.js';
import { freshServerDatabase, SKIP_SERVER, warnWhenSkipped } from './_databases.js';

warnWhenSkipped('deadlock retries and aborted units on a PostgreSQL server');

const customer = (id: string, city = 'Berlin'): CustomerRecord => ({
  customer_id: id,
  birthday: '1990-01-01',
  gender: 'f',
  location: { country: 'DE', city },
});
const payment = (id: string) => ({
  transaction_id: id,
  customer_id: 'c1',
  offer_id: 1,
  cashback_amount: '1.5',
  payment_date: '2025-06-16',
  country: 'DE',
  city: 'Berlin',
  event_id: 'e1',
});

/** The aborted-unit check on a store. */
async function abortedUnitRejects(store: Store): Promise<void> {
  await store.payments.insert('bank-a', [payment('t1')]);
  await expect(
    store.transaction(async (s) => {
      await s.customers.upsert('bank-a', [customer('c9')]);
      await s.payments.insert('bank-a', [payment('t1')]).catch(() => undefined);
      return 'resolved';
    }),
  ).rejects.toThrow(/already has a payment/);
  expect(await store.customers.get('bank-a', ['c9'])).toEqual([]);
}

describe('units of work on PGlite', () => {
  it('reject when fn caught a failed statement and resolved, and keep nothing', async () => {
    const store = await createPgliteStore();
    try {
      await abortedUnitRejects(store);
    } finally {
      await store.close?.();
    }
  });
});

describe.skipIf(SKIP_SERVER)('units of work on a PostgreSQL server', () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await freshServerDatabase();
    store = await createPostgresStore({ connectionString: database.url });
  });
  afterAll(async () => {
    await store?.close?.();
    await database?.drop();
  });

  it('reject when fn caught a failed statement and resolved, and keep nothing', async () => {
    await abortedUnitRejects(store as Store);
  });

  it('leave open a pool they were given when the store closes', async () => {
    const pool = new pg.Pool({ connectionString: (database as { url: string }).url, max: 2 });
    const given = await createPostgresStore({ pool });
    await given.customers.upsert('bank-c', [customer('c1')]);
    await given.close?.();
    const rows = await pool.query(
      "SELECT count(*)::int AS n FROM cashback_customers WHERE partner = 'bank-c'",
    );
    expect(rows.rows[0].n).toBe(1);
    await pool.end();
  });

  it('run a unit again after a deadlock, so that both deadlocked units are kept', async () => {
    const s = store as Store;
    await s.customers.upsert('bank-b', [customer('a'), customer('b')]);
    // Each unit updates one customer, waits until both have, then updates the other: a deadlock
    // that PostgreSQL breaks by failing one of them (40P01).
    let arrived = 0;
    let release: () => void = () => undefined;
    const both = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const unit = (first: string, second: string) =>
      s.transaction(async (session) => {
        calls++;
        await session.customers.upsert('bank-b', [customer(first, `${first}-1`)]);
        if (++arrived === 2) release();
        await both;
        await session.customers.upsert('bank-b', [customer(second, `${second}-2`)]);
        return first;
      });
    expect(await Promise.all([unit('a', 'b'), unit('b', 'a')])).toEqual(['a', 'b']);
    expect(calls, 'one of the two units ran again').toBe(3);
    const client = new pg.Client({ connectionString: (database as { url: string }).url });
    await client.connect();
    const rows = await client.query(
      "SELECT count(*)::int AS n FROM cashback_customers WHERE partner = 'bank-b'",
    );
    await client.end();
    expect(rows.rows[0].n).toBe(2);
  }, 30_000);
});
