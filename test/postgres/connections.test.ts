/**
 * Connections of a store made from a connection string, on a PostgreSQL server: a connection
 * killed in the middle of a unit of work (between statements, or under a waiting statement)
 * rejects the call with `StoreUnavailableError` and keeps nothing of the unit; one killed just
 * before COMMIT rejects saying that the outcome is unknown; either way the pool replaces the
 * connection and the same store works for the next call. `close()` ends the store's pool: the
 * server shows none of its backends afterwards.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CustomerRecord, StoreUnavailableError } from '../../src/store/entry.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { freshServerDatabase, SKIP_SERVER, warnWhenSkipped } from './_databases.js';

warnWhenSkipped('lost connections and close() of a store on a PostgreSQL server');

const customer = (id: string, city = 'Berlin'): CustomerRecord => ({
  customer_id: id,
  birthday: '1990-01-01',
  gender: 'f',
  location: { country: 'DE', city },
});

/** Polls `probe` every 20 ms until it returns a value `done` accepts, for at most `ms`. */
async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(SKIP_SERVER)('connections of a PostgreSQL store', () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  let name = '';
  let admin: pg.Client | undefined;
  beforeAll(async () => {
    database = await freshServerDatabase();
    name = new URL(database.url).pathname.slice(1);
    // On another database than the store's, so that it never counts among the store's backends.
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  /** The store's backends on its database, by state (the admin client is on another one). */
  const backends = async (): Promise<{ pid: number; state: string; wait: string | null }[]> =>
    (
      await (admin as pg.Client).query(
        `SELECT pid, state, wait_event_type AS wait FROM pg_stat_activity
         WHERE datname = $1 AND backend_type = 'client backend' ORDER BY pid`,
        [name],
      )
    ).rows;

  /** Terminates a backend and waits until it has exited. */
  const kill = async (pid: number): Promise<void> => {
    const rows = await (admin as pg.Client).query('SELECT pg_terminate_backend($1, 5000) AS done', [
      pid,
    ]);
    expect(rows.rows[0].done, `backend ${pid} terminated`).toBe(true);
  };

  /** The one backend of the store that is inside a unit of work, once it is in `state`/`wait`. */
  const unitBackend = async (match: (b: { state: string; wait: string | null }) => boolean) => {
    const found = await until(backends, (list) => list.some(match));
    const units = found.filter(match);
    expect(units, 'exactly one backend inside the unit').toHaveLength(1);
    return (units[0] as { pid: number }).pid;
  };

  // poolSize 1: unless the pool drops the killed connection, the next call waits for it in vain.
  const store1 = () =>
    createPostgresStore({ connectionString: (database as { url: string }).url, poolSize: 1 });

  it('reject a unit whose connection is killed between two statements, keep nothing of it, and work for the next call', async () => {
    const store = await store1();
    try {
      let killed = 0;
      const call = store.transaction(async (s) => {
        await s.customers.upsert('bank-a', [customer('k1')]);
        killed = await unitBackend((b) => b.state === 'idle in transaction');
        await kill(killed);
        await s.customers.upsert('bank-a', [customer('k2')]);
        return 'kept';
      });
      await expect(call).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(call).rejects.toMatchObject({
        code: 'store_unavailable',
        outcomeUnknown: false,
      });
      await expect(call).rejects.toThrow(
        /^PostgreSQL cannot be reached .*nothing of its unit of work was kept/,
      );
      expect(await store.customers.get('bank-a', ['k1', 'k2'])).toEqual([]);

      // The same store, on a new connection.
      await store.transaction((s) => s.customers.upsert('bank-a', [customer('k3')]));
      expect((await store.customers.get('bank-a', ['k3'])).map((c) => c.customer_id)).toEqual([
        'k3',
      ]);
      expect((await backends()).map((b) => b.pid)).not.toContain(killed);
    } finally {
      await store.close?.();
    }
  }, 30_000);

  it('reject a unit whose connection is killed under a statement waiting for a lock, keep nothing of it, and work for the next call', async () => {
    const store = await store1();
    await store.customers.upsert('bank-b', [customer('w1')]);
    // Another session holds w1's row, so that the unit's second statement waits for it.
    const holder = new pg.Client({ connectionString: (database as { url: string }).url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        "SELECT 1 FROM cashback_customers WHERE partner = 'bank-b' AND customer_id = 'w1' FOR UPDATE",
      );
      const holderPid = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const call = store.transaction(async (s) => {
        await s.customers.upsert('bank-b', [customer('w2')]);
        await s.customers.upsert('bank-b', [customer('w1', 'Hamburg')]);
        return 'kept';
      });
      // It rejects while this test is still finding and killing the backend.
      call.catch(() => undefined);
      const waiting = await unitBackend((b) => b.wait === 'Lock');
      expect(waiting).not.toBe(holderPid);
      await kill(waiting);
      await expect(call).rejects.toMatchObject({
        name: 'StoreUnavailableError',
        code: 'store_unavailable',
      });
      await expect(call).rejects.toThrow(/nothing of its unit of work was kept/);
      await holder.query('ROLLBACK');

      const stored = await store.customers.get('bank-b', ['w1', 'w2']);
      expect(stored.map((c) => [c.customer_id, c.location.city])).toEqual([['w1', 'Berlin']]);
      await store.transaction((s) => s.customers.upsert('bank-b', [customer('w3')]));
      expect((await store.customers.get('bank-b', ['w3'])).length).toBe(1);
    } finally {
      await holder.end();
      await store.close?.();
    }
  }, 30_000);

  it('reject a unit whose connection is lost at COMMIT saying that the outcome is unknown, and work for the next call', async () => {
    const store = await store1();
    try {
      const call = store.transaction(async (s) => {
        await s.customers.upsert('bank-c', [customer('c1')]);
        // The last thing before COMMIT: the connection goes away after every statement worked.
        await kill(await unitBackend((b) => b.state === 'idle in transaction'));
        return 'kept';
      });
      await expect(call).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(call).rejects.toMatchObject({ code: 'store_unavailable' });
      await expect(call).rejects.toThrow(
        /^PostgreSQL cannot be reached .*lost during COMMIT, so whether the unit of work was kept is unknown; make the call again .*safe: transaction ids and payments are stored exactly once$/,
      );
      await expect(call).rejects.not.toThrow(/nothing of its unit of work was kept/);
      await expect(call).rejects.toMatchObject({ outcomeUnknown: true });
      // Here the server lost the connection before it saw COMMIT, so it rolled the unit back.
      expect(await store.customers.get('bank-c', ['c1'])).toEqual([]);

      await store.transaction((s) => s.customers.upsert('bank-c', [customer('c2')]));
      expect((await store.customers.get('bank-c', ['c2'])).length).toBe(1);
    } finally {
      await store.close?.();
    }
  }, 30_000);

  it('end the pool made from the connection string on close: the server shows none of its backends', async () => {
    await until(backends, (list) => list.length === 0);
    expect(await backends(), 'no backend of an earlier store').toEqual([]);
    const store = await createPostgresStore({
      connectionString: (database as { url: string }).url,
      poolSize: 3,
    });
    // Three units open at once hold three connections of the pool.
    let open = 0;
    let release: () => void = () => undefined;
    const all = new Promise<void>((resolve) => {
      release = resolve;
    });
    await Promise.all(
      ['a', 'b', 'c'].map((id) =>
        store.transaction(async (s) => {
          await s.customers.upsert('bank-d', [customer(id)]);
          if (++open === 3) release();
          await all;
        }),
      ),
    );
    // Idle in the pool now: without close they would stay for the pool's idle timeout (10 s).
    expect((await backends()).length).toBe(3);
    await store.close?.();
    expect(await until(backends, (list) => list.length === 0, 3_000)).toEqual([]);
  }, 30_000);
});
