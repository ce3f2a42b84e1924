/**
 * The store conformance suite on a PostgreSQL server (DATABASE_URL): a database of its own for
 * this file, emptied before each test.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createPostgresStore, migrate } from '../../src/store/postgres/index.js';
import { storeConformance } from '../../src/testing/index.js';
import { EMPTY, freshServerDatabase, SKIP_SERVER, warnWhenSkipped } from './_databases.js';

warnWhenSkipped('the store conformance suite on a PostgreSQL server');

let database: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
beforeAll(async () => {
  if (SKIP_SERVER) return;
  database = await freshServerDatabase();
  await migrate({ connectionString: database.url });
});
afterAll(() => database?.drop());

storeConformance({
  name: 'PostgreSQL store',
  createStore: async () => {
    const url = (database as { url: string }).url;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(EMPTY);
    } finally {
      await client.end();
    }
    return createPostgresStore({ connectionString: url });
  },
  describe: SKIP_SERVER ? describe.skip : describe,
  test,
});
