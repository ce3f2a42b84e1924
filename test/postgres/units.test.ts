/**
 * What only a database asks of units of work, on PGlite and on a server: a unit whose `fn`
 * catches a failed statement and resolves is rejected, not reported kept (PostgreSQL aborted it);
 * on a server, two units that deadlock are run again until both are kept, a unit that fails with
 * a serialization failure (40001) is run again, at most five times in all, and a store over a
 * pool it was given leaves the pool open.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerRecord, Store, TransactionRecord } from '../../src/store/entry.js';
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
  offer_revision: 1,
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

/**
 * Real serialization failures at READ COMMITTED, the store's isolation level: with customers
 * partitioned by partner (as docs/postgres.md suggests past one database), a row moved to another
 * partition by a concurrent UPDATE fails the `FOR NO KEY UPDATE` lock of `transactions.insert`
 * that waited for it with SQLSTATE 40001 ("tuple to be locked was already moved to another
 * partition due to concurrent update"). Another connection provokes it anew in each run of `fn`.
 */
describe.skipIf(SKIP_SERVER)('serialization failures on a PostgreSQL server', () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  let store: Store | undefined;
  let mover: pg.Client | undefined;
  let watcher: pg.Client | undefined;
  let moverPid = 0;
  beforeAll(async () => {
    database = await freshServerDatabase();
    store = await createPostgresStore({ connectionString: database.url });
    mover = new pg.Client({ connectionString: database.url });
    watcher = new pg.Client({ connectionString: database.url });
    await mover.connect();
    await watcher.connect();
    moverPid = (await mover.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    // The migrated table, columns and keys as they are, made partitioned by partner.
    await mover.query(`
      CREATE TABLE cashback_customers_partitioned (LIKE cashback_customers INCLUDING ALL)
        PARTITION BY LIST (partner);
      DROP TABLE cashback_customers;
      ALTER TABLE cashback_customers_partitioned RENAME TO cashback_customers;
      CREATE TABLE cashback_customers_bank_a PARTITION OF cashback_customers FOR VALUES IN ('bank-a');
      CREATE TABLE cashback_customers_others PARTITION OF cashback_customers DEFAULT;`);
  });
  afterAll(async () => {
    await mover?.end();
    await watcher?.end();
    await store?.close?.();
    await database?.drop();
  });

  const record = (id: string): TransactionRecord => ({
    transaction_id: id,
    customer_id: 'x',
    source: 'transaction',
    date: '2025-06-02T09:15:00.000000000',
    day: '2025-06-02',
    amount: '12.5',
    merchant_key: 'bakery',
    merchant: { id: 'm', name: 'Bakery', category_code: '5812' },
    description: '',
    location: { country: 'DE', city: 'Berlin' },
  });

  // Customer x of bank-a, written in SQL: `customers.upsert` reads `xmax`, which PostgreSQL does
  // not return from a partitioned table.
  const PUT_X = `INSERT INTO cashback_customers VALUES ('bank-a', 'x', '1990-01-01', 'f', 'DE', 'Berlin')
    ON CONFLICT DO NOTHING`;

  /** Until the unit's statement waits for the mover's lock. */
  const waitUntilBlocked = async (): Promise<void> => {
    const end = Date.now() + 10_000;
    for (;;) {
      const rows = await (watcher as pg.Client).query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
        [moverPid],
      );
      if (rows.rows[0].n > 0) return;
      if (Date.now() > end) throw new Error('the unit never waited for the mover');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  /**
   * A unit inserting transaction `id` of customer x of bank-a; in each run that `provoke` says,
   * another connection moves x to another partition while the unit's insert waits for x's row,
   * so that the insert fails with 40001. Resolves or rejects with the unit, and counts the runs.
   */
  const unit = async (id: string, provoke: (run: number) => boolean) => {
    const s = store as Store;
    const m = mover as pg.Client;
    await m.query(PUT_X);
    let runs = 0;
    const outcome = s
      .transaction(async (session) => {
        runs++;
        if (!provoke(runs)) return session.transactions.insert('bank-a', [record(id)]);
        await m.query('BEGIN');
        await m.query(
          "UPDATE cashback_customers SET partner = $1 WHERE partner = 'bank-a' AND customer_id = 'x'",
          [`moved-${id}-${runs}`],
        );
        const insert = session.transactions.insert('bank-a', [record(id)]);
        insert.catch(() => undefined);
        try {
          await waitUntilBlocked();
        } finally {
          await m.query('COMMIT');
        }
        try {
          return await insert;
        } finally {
          await m.query(PUT_X); // x back in bank-a, for the next run
        }
      })
      .then(
        (value) => ({ value, runs }),
        (error: unknown) => ({ error, runs }),
      );
    return outcome;
  };

  it('run a unit again after a serialization failure, and keep the run that succeeds', async () => {
    const { value, error, runs } = (await unit('t1', (run) => run <= 2)) as {
      value?: string[];
      error?: unknown;
      runs: number;
    };
    expect(error).toBeUndefined();
    expect(value).toEqual(['t1']);
    expect(runs, 'two failed runs, then one that succeeded').toBe(3);
    expect(await (store as Store).transactions.existing('bank-a', ['t1'])).toEqual(['t1']);
  }, 60_000);

  it('run a unit that always fails with a serialization failure five times in all, then reject with it', async () => {
    const { error, runs } = (await unit('t2', () => true)) as { error?: unknown; runs: number };
    expect(runs).toBe(5);
    expect(error).toMatchObject({ code: '40001' });
    expect((error as Error).message).toMatch(/moved to another partition due to concurrent update/);
    expect(await (store as Store).transactions.existing('bank-a', ['t2'])).toEqual([]);
  }, 60_000);
});
