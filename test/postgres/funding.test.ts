/**
 * Budgets and caps through the engine (test/engine/_fundingOnStore.ts) over the PostgreSQL store,
 * on PGlite (always) and on a server (DATABASE_URL). Every store a test takes starts empty.
 */
import { describe } from 'vitest';
import { describeCalendarEdges } from '../engine/_calendarEdges.js';
import { describeFundingOnStore } from '../engine/_fundingOnStore.js';
import { SKIP_SERVER, warnWhenSkipped } from './_databases.js';
import { freshPgliteStores, freshServerStores } from './_freshStores.js';

warnWhenSkipped('the funding tests on a PostgreSQL server');

describe('funding controls on the PGlite store', () => {
  describeFundingOnStore(freshPgliteStores(), 8);
  describeCalendarEdges(freshPgliteStores());
});

describe.skipIf(SKIP_SERVER)('funding controls on the PostgreSQL store on a server', () => {
  describeFundingOnStore(freshServerStores(), 8);
  describeCalendarEdges(freshServerStores());
});
