/**
 * Property 8: results do not depend on time zones when dates carry no offset. Such dates are
 * wall-clock times taken as is (docs/concepts.md, Time zones), so the engine's `timeZone` option changes nothing;
 * CI also runs this folder under TZ=Pacific/Kiritimati and TZ=America/Los_Angeles, for the host's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replay } from '../../src/index.js';
import { scenarioArbitrary } from '../../src/testing/index.js';
import { ZONES } from './_options.js';

describe('a replay of dates without offsets', () => {
  it('gives identical results whatever the timeZone option', () => {
    fc.assert(
      fc.property(
        scenarioArbitrary({ offsets: false }),
        fc.constantFrom(...ZONES),
        fc.constantFrom(...ZONES),
        (scenario, a, b) => {
          expect(replay(scenario, { timeZone: b })).toEqual(replay(scenario, { timeZone: a }));
        },
      ),
      { numRuns: 100 },
    );
  });
});
