/**
 * The engine's race tests (test/engine/_races.ts) on the memory store: concurrent requests with
 * overlapping transaction ids, and concurrent calls racing on the history a batch is decided on.
 * test/postgres/races.test.ts runs them on PGlite and on a PostgreSQL server.
 */
import { createMemoryStore } from '../../src/engine/entry.js';
import { describeRaces } from './_races.js';

describeRaces(async () => createMemoryStore(), { ids: 100, firstPurchases: 30 });
