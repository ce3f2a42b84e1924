/**
 * Fresh, empty stores over the PostgreSQL store for the engine's shared tests: on PGlite, one
 * in-memory database for the describe block; on a server, a database of the block's own (made
 * before its tests, dropped after). Either is emptied before each store it hands out, so no test
 * sees another's data. Call inside a `describe`: it registers the block's hooks.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Store } from '../../src/store/entry.js';
import { createPgliteStore, createPostgresStore, migrate } from '../../src/store/postgres/index.js';
import { EMPTY, freshServerDatabase, sharedPglite } from './_databases.js';

/** Empty PGlite stores over one in-memory database, closed after the block. */
export function freshPgliteStores(): () => Promise<Store> {
  const shared = sharedPglite();
  afterAll(() => shared.close());
  return async () => {
    const db = await shared.db();
    await migrate({ db });
    await db.exec(EMPTY);
    return createPgliteStore({ db });
  };
}

/** Empty stores on the server (DATABASE_URL), in a database made for the block. */
export function freshServerStores(): () => Promise<Store> {
  let database: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  beforeAll(async () => {
    database = await freshServerDatabase();
    await migrate({ connectionString: database.url });
  });
  afterAll(() => database?.drop());
  return async () => {
    const url = (database as { url: string }).url;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(EMPTY).finally(() => client.end());
    return createPostgresStore({ connectionString: url });
  };
}
