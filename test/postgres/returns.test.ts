/**
 * `engine.addReturns` (test/engine/_returnsOnStore.ts) over the PostgreSQL store, on PGlite
 * (always) and on a server (DATABASE_URL). Every store a test takes starts empty.
 */
import { describe } from 'vitest';
import { describeReturnsOnStore } from '../engine/_returnsOnStore.js';
import { SKIP_SERVER, warnWhenSkipped } from './_databases.js';
import { freshPgliteStores, freshServerStores } from './_freshStores.js';

warnWhenSkipped('the returns tests on a PostgreSQL server');

describe('returns on the PGlite store', () => {
  describeReturnsOnStore(freshPgliteStores(), 10);
});

describe.skipIf(SKIP_SERVER)('returns on the PostgreSQL store on a server', () => {
  describeReturnsOnStore(freshServerStores(), 10, true);
});
