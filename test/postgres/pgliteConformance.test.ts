/** The store conformance suite on PGlite: one in-memory database, emptied before each test. */
import { afterAll, describe, test } from 'vitest';
import { createPgliteStore, migrate } from '../../src/store/postgres/index.js';
import { storeConformance } from '../../src/testing/index.js';
import { EMPTY, sharedPglite } from './_databases.js';

const shared = sharedPglite();
afterAll(() => shared.close());

storeConformance({
  name: 'PGlite store',
  createStore: async () => {
    const db = await shared.db();
    await migrate({ db });
    await db.exec(EMPTY);
    return createPgliteStore({ db });
  },
  describe,
  test,
});
