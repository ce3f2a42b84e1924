/**
 * The partitions of `cashback replay --workers N`, driven in one thread with the driver's own
 * modules (blocks routed by customer, each partition's session classifying and deciding, the
 * reading thread's ledger marking, outcomes through their wire form), decide as one replay
 * session does: the same outcomes chunk by chunk, and the same LateTransactionError at the same
 * chunk, whatever the number of partitions and the block size.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LateTransactionError } from '../../../src/core/replay/LateTransactionError.js';
import { type Block, recordBlocks } from '../../../src/files/parallel/blocks.js';
import { blockOutcomes, markBlock } from '../../../src/files/parallel/markBlock.js';
import { PartitionReplay } from '../../../src/files/parallel/PartitionReplay.js';
import { shareInputs } from '../../../src/files/parallel/shareInputs.js';
import {
  encodeOutcomes,
  OutcomeList,
  OutcomeReader,
} from '../../../src/files/parallel/wireOutcomes.js';
import type { FileRecord } from '../../../src/files/readRecords.js';
import { compileOffers, createReplay, type Outcome, resolveOptions } from '../../../src/index.js';
import { scenarioArbitrary } from '../../../src/testing/index.js';

/** Scenarios with shared customers, duplicates and history-reading offers over short lookbacks. */
const scenario = fc
  .tuple(
    scenarioArbitrary({
      duplicateRate: 0.2,
      customerIds: ['c1', 'c2', 'c3', 'c4', 'c5'],
      merchants: ['Coffee House', 'Book Nook'],
      maxTransactions: 40,
      dates: { from: '2025-03-01', to: '2025-04-30' },
    }),
    fc.infiniteStream(
      fc.record({
        audience: fc.constantFrom('all', 'new', 'returning'),
        lookback_days: fc.integer({ min: 0, max: 20 }),
      }),
    ),
  )
  .map(([s, draws]) => ({
    ...s,
    offers: s.offers.map((o) => ({ ...(o as object), ...draws.next().value })),
  }));

/** The transactions as a file reader yields them, in one batch. */
async function* records(transactions: readonly unknown[]): AsyncGenerator<FileRecord[]> {
  yield transactions.map((value, i): FileRecord => ({ ok: true, value, line: i + 1 }));
}

/**
 * The outcomes of each block, as the parallel driver makes them, or the error that ended it.
 * Partitions past 0 send their outcomes through the wire form, as a worker thread does.
 */
async function driven(
  data: { offers: unknown[]; customers: unknown[]; history: unknown[]; transactions: unknown[] },
  partitions: number,
  blockSize: number,
  lateness: number,
): Promise<{ chunks: Outcome[][]; error?: unknown }> {
  const resolved = resolveOptions({});
  const shared = shareInputs(
    compileOffers(data.offers),
    data.customers,
    data.history,
    resolved,
    lateness,
    partitions,
  );
  const { timeZone, scale, rounding, currency } = resolved;
  const pool = shared.parts.map(
    (share) =>
      new PartitionReplay({
        offers: data.offers,
        ...share,
        options: { timeZone, scale, rounding, currency, maxLatenessDays: lateness },
      }),
  );
  const next = { index: 0 };
  const chunks: Outcome[][] = [];
  const blocks = recordBlocks(records(data.transactions), partitions, blockSize, () => {});
  let n = 0;
  try {
    for await (const block of blocks as AsyncIterable<Block>) {
      const b = n++;
      const screened = pool.map((p, i) => structuredClone(p.screen(b, block.parts[i] as never)));
      const marks = markBlock(block, screened, shared.ledger, next, () => {});
      const decided = pool.map((p, i) => {
        const outcomes = p.decide(b, marks.duplicates[i] as never, marks.indices[i] as never);
        const source =
          i === 0
            ? new OutcomeList(outcomes)
            : new OutcomeReader(structuredClone(encodeOutcomes(outcomes)));
        return { outcomes: source, purchases: p.purchases() };
      });
      chunks.push(blockOutcomes(block, marks, decided));
    }
  } catch (error) {
    return { chunks, error };
  }
  return { chunks };
}

describe('the partitions of a parallel replay', () => {
  test('decide as one session, chunk by chunk, and end at the same late transaction', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenario,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 9 }),
        fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(Number.POSITIVE_INFINITY)),
        async (s, partitions, blockSize, lateness) => {
          const data = {
            offers: s.offers as unknown[],
            customers: s.customers as unknown[],
            history: (s.history ?? []) as unknown[],
            transactions: s.transactions as unknown[],
          };
          const got = await driven(data, partitions, blockSize, lateness);
          const session = createReplay(data, { maxLatenessDays: lateness });
          const want: Outcome[][] = [];
          let error: unknown;
          for (let i = 0; i < data.transactions.length; i += blockSize) {
            try {
              want.push([...session.push(data.transactions.slice(i, i + blockSize))]);
            } catch (e) {
              error = e;
              break;
            }
          }
          expect(got.chunks).toEqual(want);
          if (error === undefined) expect(got.error).toBeUndefined();
          else {
            expect(error).toBeInstanceOf(LateTransactionError);
            expect(got.error).toEqual(error);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
