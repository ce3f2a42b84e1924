/**
 * The payment ledger through the engine (test/engine/_ledgerOnStore.ts) over the PostgreSQL
 * store, on PGlite (always) and on a server (DATABASE_URL). Every store a test takes starts empty.
 */
import { describe } from 'vitest';
import { describeLedgerOnStore } from '../engine/_ledgerOnStore.js';
import { SKIP_SERVER, warnWhenSkipped } from './_databases.js';
import { freshPgliteStores, freshServerStores } from './_freshStores.js';

warnWhenSkipped('the payment ledger on a PostgreSQL server');

describe('the payment ledger on the PGlite store', () => {
  describeLedgerOnStore(freshPgliteStores());
});

describe.skipIf(SKIP_SERVER)('the payment ledger on the PostgreSQL store on a server', () => {
  describeLedgerOnStore(freshServerStores());
});
