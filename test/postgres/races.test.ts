/**
 * The engine's race tests (test/engine/_races.ts) over the PostgreSQL store, on PGlite (always)
 * and on a server (DATABASE_URL): concurrent requests with overlapping transaction ids, on one
 * engine and on engines sharing a store, and concurrent calls racing on the history a batch is
 * decided on. Every store a test (or a run of a property) takes starts empty.
 */
import { describe } from 'vitest';
import { describeRaces } from '../engine/_races.js';
import { SKIP_SERVER, warnWhenSkipped } from './_databases.js';
import { freshPgliteStores, freshServerStores } from './_freshStores.js';

warnWhenSkipped('the engine race tests on a PostgreSQL server');

describe('the engine over the PGlite store', () => {
  describeRaces(freshPgliteStores(), { ids: 50, firstPurchases: 30 });
});

describe.skipIf(SKIP_SERVER)('the engine over the PostgreSQL store on a server', () => {
  describeRaces(freshServerStores(), { ids: 30, firstPurchases: 30 });
});
