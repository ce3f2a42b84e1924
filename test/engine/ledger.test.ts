/**
 * The payment ledger through the engine (test/engine/_ledgerOnStore.ts) on the memory store;
 * PGlite and a PostgreSQL server run the same tests in test/postgres/ledger.test.ts.
 */
import { describe } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import { describeLedgerOnStore } from './_ledgerOnStore.js';

describe('the payment ledger on the memory store', () => {
  describeLedgerOnStore(async () => createMemoryStore());
});
