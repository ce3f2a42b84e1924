/**
 * `engine.addReturns` (test/engine/_returnsOnStore.ts) on the memory store, on PGlite and on a
 * PostgreSQL server when DATABASE_URL is set.
 */
import { describe } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import { SKIP_SERVER, warnWhenSkipped } from '../postgres/_databases.js';
import { freshPgliteStores, freshServerStores } from '../postgres/_freshStores.js';
import { describeReturnsOnStore } from './_returnsOnStore.js';

warnWhenSkipped('the returns tests on a PostgreSQL server');

describe('returns on the memory store', () => {
  describeReturnsOnStore(async () => createMemoryStore(), 60);
});

describe('returns on the PGlite store', () => {
  describeReturnsOnStore(freshPgliteStores(), 10);
});

describe.skipIf(SKIP_SERVER)('returns on the PostgreSQL store on a server', () => {
  describeReturnsOnStore(freshServerStores(), 10);
});
