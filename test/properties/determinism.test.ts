/**
 * Property 7: a replay is deterministic (no clock, no randomness in the core: docs/decisions.md, Replay): the
 * same input twice gives deep-equal results.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/index.js';
import { scenarioArbitrary } from '../../src/testing/index.js';
import { optionsArbitrary } from './_options.js';

describe('replay', () => {
  it('returns deep-equal results for the same input twice', () => {
    fc.assert(
      fc.property(scenarioArbitrary(), optionsArbitrary, (scenario, options) => {
        const first = replay(scenario, options);
        const second = replay(structuredClone(scenario), { ...options });
        expect(second).toEqual(first);
      }),
      { numRuns: 100 },
    );
  });
});
