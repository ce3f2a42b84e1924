/**
 * Budgets and caps through the engine (test/engine/_fundingOnStore.ts) on the memory store; PGlite
 * and a PostgreSQL server run the same tests in test/postgres/funding.test.ts.
 */
import { describe } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import { describeCalendarEdges } from './_calendarEdges.js';
import { describeFundingOnStore } from './_fundingOnStore.js';

describe('funding controls on the memory store', () => {
  describeFundingOnStore(async () => createMemoryStore(), 40);
  describeCalendarEdges(async () => createMemoryStore());
});
