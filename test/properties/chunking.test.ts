/**
 * Property 3: splitting the transactions into consecutive chunks changes nothing, keys included
 * (DESIGN.md §3: a transaction sees everything stored before it, earlier items of its batch too).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReplay } from '../../src/index.js';
import { scenarioArbitrary } from '../../src/testing/index.js';
import { optionsArbitrary } from './_options.js';

/** The transactions cut at the given positions (sorted, deduplicated, clamped). */
function chunksOf<T>(items: readonly T[], cuts: readonly number[]): T[][] {
  const at = [...new Set(cuts.map((c) => c % (items.length + 1)))].sort((a, b) => a - b);
  const chunks: T[][] = [];
  let from = 0;
  for (const cut of [...at, items.length]) {
    chunks.push(items.slice(from, cut));
    from = cut;
  }
  return chunks;
}

describe('replaying in chunks', () => {
  it('gives the same outcomes, keys and summary as one batch, for any consecutive chunks', () => {
    fc.assert(
      fc.property(
        scenarioArbitrary({ duplicateRate: 0.2 }),
        optionsArbitrary,
        fc.array(fc.nat(), { maxLength: 6 }),
        (scenario, options, cuts) => {
          const whole = createReplay(scenario, options);
          const expected = whole.push(scenario.transactions);
          const chunked = createReplay(scenario, options);
          const actual = chunksOf(scenario.transactions, cuts).flatMap((chunk) => [
            ...chunked.push(chunk),
          ]);
          expect(actual).toEqual(expected);
          expect(chunked.summary()).toEqual(whole.summary());
        },
      ),
      { numRuns: 150 },
    );
  });
});
