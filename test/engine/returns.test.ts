/**
 * `engine.addReturns` (test/engine/_returnsOnStore.ts) on the memory store; PGlite and a
 * PostgreSQL server run the same tests in test/postgres/returns.test.ts.
 */
import { describe } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import { describeReturnsOnStore } from './_returnsOnStore.js';

describe('returns on the memory store', () => {
  describeReturnsOnStore(async () => createMemoryStore(), 60);
});
