/**
 * Schema migrations: the embedded module matches the .sql files; an empty database gets every
 * migration once, a second run applies nothing; four processes migrating one database at once
 * apply them once; a PGlite data directory keeps its data and schema across stores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteStore, migrate } from '../../src/store/postgres/index.js';
import { applyMigrations } from '../../src/store/postgres/migrate.js';
import { MIGRATIONS } from '../../src/store/postgres/migrations/index.js';
import { pgliteDriver } from '../../src/store/postgres/pgliteDriver.js';
import { buildChild, runChildren } from './_children.js';
import { freshServerDatabase, SKIP_SERVER, warnWhenSkipped } from './_databases.js';

warnWhenSkipped('migrations on a PostgreSQL server, from one process and from four at once');

const ALL = MIGRATIONS.map((m) => m.version);
const folder = fileURLToPath(new URL('../../src/store/postgres/migrations/', import.meta.url));

describe('migrations', () => {
  it('embeds exactly the .sql files (regenerate with node src/store/postgres/migrations/generate.mjs)', async () => {
    const { migrationsModule } = (await import(join(folder, 'generate.mjs'))) as {
      migrationsModule: (dir: string) => string;
    };
    expect(await readFile(join(folder, 'index.ts'), 'utf8')).toBe(migrationsModule(folder));
  });

  it('are numbered 1, 2, 3… without gaps', () => {
    expect(ALL).toEqual(ALL.map((_, i) => i + 1));
  });

  it('on PGlite: apply every migration to an empty database, then nothing on a second run', async () => {
    const db = await PGlite.create();
    try {
      expect(await migrate({ db })).toEqual(ALL);
      expect(await migrate({ db })).toEqual([]);
      const rows = await db.query<{ version: number }>(
        'SELECT version FROM cashback_migrations ORDER BY version',
      );
      expect(rows.rows.map((r) => r.version)).toEqual(ALL);
    } finally {
      await db.close();
    }
  });

  it('on PGlite: version 6 brings a store of version 5 forward, its returns summed into totals', async () => {
    const db = await PGlite.create();
    try {
      const store = await createPgliteStore({ db });
      await store.customers.upsert('bank-a', [
        {
          customer_id: 'c1',
          birthday: '1990-01-01',
          gender: 'f',
          location: { country: 'DE', city: 'Berlin' },
        },
      ]);
      const tx = {
        customer_id: 'c1',
        source: 'transaction' as const,
        date: '2025-03-10T12:00:00.000000000',
        day: '2025-03-10',
        amount: '100',
        merchant_key: 'shop',
        merchant: { id: 'm', name: 'Shop', category_code: '5411' },
        description: '',
        location: { country: 'DE', city: 'Berlin' },
      };
      await store.transactions.insert('bank-a', [
        { ...tx, transaction_id: 't1' },
        { ...tx, transaction_id: 't2' },
      ]);
      const ret = { date: '2025-03-11T00:00:00.000000000', day: '2025-03-11', event_id: 'e' };
      await store.returns.insert('bank-a', [
        { ...ret, return_id: 'r1', transaction_id: 't1', amount: '1.5' },
        { ...ret, return_id: 'r2', transaction_id: 't1', amount: '2' },
        { ...ret, return_id: 'r3', transaction_id: 't2', amount: '7' },
      ]);
      // The store as version 5 left it: no totals, the migration not recorded.
      await db.exec(`DROP TABLE cashback_return_totals;
        DROP INDEX cashback_payments_paid_by_offer; DROP INDEX cashback_funding_scopes_by_offer;
        DELETE FROM cashback_migrations WHERE version = 6;`);
      expect(await migrate({ db })).toEqual([6]);
      const totals = await store.returns.hold('bank-a', ['t1', 't2']);
      expect(
        [...totals]
          .sort((a, b) => a.transaction_id.localeCompare(b.transaction_id))
          .map((t) => [t.transaction_id, Number(t.amount), t.count]),
      ).toEqual([
        ['t1', 3.5, 2],
        ['t2', 7, 1],
      ]);
    } finally {
      await db.close();
    }
  });

  it('on PGlite: versions 7 to 10 bring a store of version 6 forward: its offers and payments at revision 1, its payments confirmed one by one and counted by day', async () => {
    const db = await PGlite.create();
    try {
      await applyMigrations(pgliteDriver(db, false), MIGRATIONS.slice(0, 6));
      const offer = {
        offer_id: 4,
        name: 'Old',
        merchant_name: 'Shop',
        warranty: 0,
        discount: 5,
        valid_from: '2025-01-01',
        valid_to: '2025-12-31',
        active: true,
      };
      await db.query('INSERT INTO cashback_offers (offer_id, record) VALUES (4, $1)', [
        JSON.stringify(offer),
      ]);
      await db.query(
        `INSERT INTO cashback_payments (partner, transaction_id, customer_id, offer_id,
           cashback_amount, payment_date, country, city, event_id, order_key)
         VALUES ('bank-a', 't1', 'c1', 4, 1.5, '2025-06-02', 'FR', 'Lyon', 'e1', '\\x0074')`,
      );
      expect(await migrate({ db })).toEqual([7, 8, 9, 10]);
      const store = await createPgliteStore({ db });
      const [current] = await store.offers.list();
      expect(current).toMatchObject({ offer, revision: 1 });
      expect(await store.offers.history([4])).toEqual([current]);
      expect(await store.payments.get('bank-a', ['t1'])).toEqual([
        expect.objectContaining({
          offer_revision: 1,
          clawed_back_amount: '0',
          confirmed_event: null,
        }),
      ]);
      const listed = await store.payments.list('bank-a', {
        from: '2025-06-01',
        to: '2025-06-30',
        offset: 0,
        limit: 10,
      });
      expect([listed.total, listed.items.length]).toEqual([1, 1]);
      // Stored before version 9, it counts as late: its own row says it is confirmed.
      const due = await store.confirmations.take({
        through: '2025-06-02',
        limit: 10,
        event_id: 'c1',
      });
      expect(due?.payments.map((p) => p.transaction_id)).toEqual(['t1']);
      expect((await db.query('SELECT late, confirmed_event FROM cashback_payments')).rows).toEqual([
        { late: true, confirmed_event: 'c1' },
      ]);
      expect(
        await store.confirmations.take({ through: '2025-06-02', limit: 10, event_id: 'c2' }),
      ).toBe(undefined);
    } finally {
      await db.close();
    }
  });

  it('on PGlite: a data directory keeps what a store wrote after the store is closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cashback-pglite-'));
    try {
      const first = await createPgliteStore({ dataDir: dir });
      await first.customers.upsert('bank-a', [
        {
          customer_id: 'c1',
          birthday: '1990-01-01',
          gender: 'f',
          location: { country: 'DE', city: 'Berlin' },
        },
      ]);
      await first.close?.();
      expect(await migrate({ dataDir: dir })).toEqual([]);
      const second = await createPgliteStore({ dataDir: dir });
      expect(await second.customers.get('bank-a', ['c1'])).toHaveLength(1);
      await second.close?.();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(SKIP_SERVER)('migrations on a PostgreSQL server', () => {
  let child: Awaited<ReturnType<typeof buildChild>> | undefined;
  beforeAll(async () => {
    child = await buildChild();
  }, 120_000);
  afterAll(() => child?.remove());

  it('apply every migration to an empty database, then nothing on a second run', async () => {
    const database = await freshServerDatabase();
    try {
      expect(await migrate({ connectionString: database.url })).toEqual(ALL);
      expect(await migrate({ connectionString: database.url })).toEqual([]);
      const pool = new pg.Pool({ connectionString: database.url });
      expect(await migrate({ pool })).toEqual([]);
      await pool.end();
    } finally {
      await database.drop();
    }
  });

  it('apply once when four processes migrate one empty database at the same time', async () => {
    const database = await freshServerDatabase();
    try {
      const results = await runChildren(
        (child as { file: string }).file,
        Array.from({ length: 4 }, () => ({ mode: 'migrate' as const, url: database.url })),
      );
      const applied = results.map((r) => r.applied);
      expect(applied.filter((a) => a?.length === ALL.length)).toHaveLength(1);
      expect(applied.filter((a) => a?.length === 0)).toHaveLength(3);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const rows = await client.query('SELECT count(*)::int AS n FROM cashback_migrations');
      await client.end();
      expect(rows.rows[0].n).toBe(ALL.length);
    } finally {
      await database.drop();
    }
  }, 60_000);
});
