/**
 * The engine's example tests that go through its store (test/engine/_engineOnStore.ts: offers and
 * their events, the cashback event, the unit of work, stored records, active offers, explain,
 * history across requests, tenancy, `details`, injected clock and ids, the money options) over the
 * PostgreSQL store, on PGlite (always) and on a server (DATABASE_URL). Every store a test takes
 * starts empty.
 */
import { describe } from 'vitest';
import { describeEngineOnStore } from '../engine/_engineOnStore.js';
import { SKIP_SERVER, warnWhenSkipped } from './_databases.js';
import { freshPgliteStores, freshServerStores } from './_freshStores.js';

warnWhenSkipped('the engine example tests on a PostgreSQL server');

describe('the engine over the PGlite store', () => {
  describeEngineOnStore(freshPgliteStores());
});

describe.skipIf(SKIP_SERVER)('the engine over the PostgreSQL store on a server', () => {
  describeEngineOnStore(freshServerStores());
});
