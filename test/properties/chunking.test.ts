/**
 * Property 3: splitting the transactions into consecutive chunks changes nothing, keys included
 * (docs/concepts.md, Outcomes and error codes: a transaction sees everything stored before it, earlier items of its batch too).
 * Whether a transaction is too late for the session (`maxLatenessDays`) does not depend on the
 * chunks either: both runs stop at the same transaction, or neither does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReplay, LateTransactionError, type Outcome } from '../../src/index.js';
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

/** The outcomes of pushing `chunks` in turn, up to a LateTransactionError and its key. */
function pushAll(
  session: ReturnType<typeof createReplay>,
  chunks: readonly (readonly unknown[])[],
): { outcomes: Outcome[]; late?: string } {
  const outcomes: Outcome[] = [];
  for (const chunk of chunks) {
    try {
      outcomes.push(...session.push(chunk));
    } catch (e) {
      if (!(e instanceof LateTransactionError)) throw e;
      return { outcomes, late: e.key };
    }
  }
  return { outcomes };
}

describe('replaying in chunks', () => {
  it('gives the same outcomes, keys and summary as one batch, for any consecutive chunks', () => {
    fc.assert(
      fc.property(
        scenarioArbitrary({ duplicateRate: 0.2 }),
        optionsArbitrary,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 60 })),
        (scenario, drawn, cuts, maxLatenessDays) => {
          const options = { ...drawn, maxLatenessDays };
          const whole = createReplay(scenario, options);
          const expected = pushAll(whole, [scenario.transactions]);
          const chunked = createReplay(scenario, options);
          const actual = pushAll(chunked, chunksOf(scenario.transactions, cuts));
          expect(actual.late).toEqual(expected.late);
          if (expected.late !== undefined) return;
          expect(actual.outcomes).toEqual(expected.outcomes);
          expect(chunked.summary()).toEqual(whole.summary());
        },
      ),
      { numRuns: 150 },
    );
  });
});
