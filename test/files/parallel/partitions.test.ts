/**
 * The partitions of `cashback replay --workers N`, driven in one thread with the driver's own
 * modules (blocks routed by customer, or by merchant where an offer has a budget, each
 * partition's session classifying and deciding, the reading thread's screener marking, outcomes
 * through their wire form), decide as one replay session does: the same outcomes chunk by chunk,
 * and the same LateTransactionError at the same chunk, whatever the number of partitions and the
 * block size, with budgets, caps and activations too.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LateTransactionError } from '../../../src/core/replay/LateTransactionError.js';
import { type Block, recordBlocks } from '../../../src/files/parallel/blocks.js';
import { blockOutcomes, markBlock } from '../../../src/files/parallel/markBlock.js';
import { PartitionReplay } from '../../../src/files/parallel/PartitionReplay.js';
import { Routes } from '../../../src/files/parallel/Routes.js';
import { shareInputs } from '../../../src/files/parallel/shareInputs.js';
import {
  encodeOutcomes,
  OutcomeList,
  OutcomeReader,
} from '../../../src/files/parallel/wireOutcomes.js';
import type { FileRecord } from '../../../src/files/readRecords.js';
import { createReplay, type Outcome, resolveOptions } from '../../../src/index.js';
import { compileOfferSet } from '../../../src/matching/compileOffers.js';
import { scenarioArbitrary } from '../../../src/testing/index.js';

const CUSTOMERS = ['c1', 'c2', 'c3', 'c4', 'c5'];
const period = fc.constantFrom('offer', 'day', 'week', 'month');

/** Budgets, caps and activation on some offers: small, so that they run out. */
const funding = fc.record(
  {
    budget: fc.record({ amount: fc.constantFrom('0.25', 2, 10, 40), period }),
    customer_cap: fc.oneof(
      fc.record({ amount: fc.constantFrom('0.1', 1, 15), period }),
      fc.record({ count: fc.integer({ min: 1, max: 3 }), period }),
      fc.record({
        amount: fc.constantFrom('0.1', 1, 15),
        count: fc.integer({ min: 1, max: 3 }),
        period,
      }),
    ),
    requires_activation: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** What opens an offer to every customer of its merchant. */
const OPEN = {
  age: [],
  gender: [],
  audience: 'all',
  active: true,
  valid_from: '2025-01-01',
  valid_to: '2025-12-31',
  discount: 10,
};

/** Activations of the scenario's offers: some invalid, some given twice, some dated late. */
const activations = fc.array(
  fc.record({
    customer_id: fc.constantFrom(...CUSTOMERS, ' c2 ', 'c9'),
    // The scenario's offer at this position (as text when `asText`), or an offer of no one.
    offer: fc.oneof(fc.nat(5), fc.constant(-1)),
    asText: fc.boolean(),
    date: fc.constantFrom('2025-03-01T00:00:00', '2025-04-01T12:00:00', 'not a date'),
  }),
  { maxLength: 12 },
);

/**
 * Scenarios with shared customers, duplicates, history-reading offers over short lookbacks, and
 * budgets (which every customer of a merchant shares, so which span partitions), caps and
 * activations.
 */
const scenario = fc
  .tuple(
    scenarioArbitrary({
      duplicateRate: 0.2,
      customerIds: CUSTOMERS,
      merchants: ['Coffee House', 'Book Nook', 'Fuel Stop'],
      maxTransactions: 40,
      dates: { from: '2025-03-01', to: '2025-04-30' },
    }),
    fc.infiniteStream(
      fc.record({
        audience: fc.constantFrom('all', 'new', 'returning'),
        lookback_days: fc.integer({ min: 0, max: 20 }),
      }),
    ),
    fc.infiniteStream(fc.option(funding, { freq: 3 })),
    activations,
  )
  .map(([s, draws, funded, activations]) => ({
    ...s,
    activations: activations.map(({ customer_id, offer, asText, date }) => {
      const id = offer < 0 ? 999 : (s.offers[offer % s.offers.length]?.offer_id ?? 999);
      return { customer_id, offer_id: asText ? String(id) : id, date };
    }),
    offers: s.offers.map((o) => {
      const f = funded.next().value;
      const offer: Record<string, unknown> = {
        ...(o as object),
        ...draws.next().value,
        ...(f ?? {}),
      };
      // In half the scenarios, funded offers are open to every customer: budgets run out, and
      // activations decide who is paid.
      if (f === null || s.transactions.length % 2 === 1) return offer;
      const { conditions: _, min_amount: __, reward: ___, ...open } = offer;
      return { ...open, ...OPEN };
    }),
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
  data: Data,
  partitions: number,
  blockSize: number,
  lateness: number,
): Promise<{ chunks: Outcome[][]; error?: unknown; rejected?: unknown }> {
  const resolved = resolveOptions({});
  const offers = compileOfferSet(data.offers);
  const routes = new Routes(offers, partitions);
  const shared = shareInputs(offers, data, resolved, lateness, routes);
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
  const blocks = recordBlocks(records(data.transactions), routes, blockSize, () => {});
  let n = 0;
  try {
    for await (const block of blocks as AsyncIterable<Block>) {
      const b = n++;
      const screened = pool.map((p, i) => structuredClone(p.screen(b, block.parts[i] as never)));
      const marks = markBlock(block, screened, shared.screener, next, () => {});
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
  return { chunks, rejected: shared.rejected };
}

/** The data of a replay, every list given. */
interface Data {
  offers: unknown[];
  customers: unknown[];
  activations: unknown[];
  history: unknown[];
  transactions: unknown[];
}

/** Checks that the partitions decide `data` as one session pushed the same blocks does. */
async function expectOneSession(
  data: Data,
  partitions: number,
  blockSize: number,
  lateness: number,
): Promise<void> {
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
  if (got.rejected !== undefined) expect(got.rejected).toEqual(session.rejected);
  if (error === undefined) expect(got.error).toBeUndefined();
  else {
    expect(error).toBeInstanceOf(LateTransactionError);
    expect(got.error).toEqual(error);
  }
}

const MERCHANTS = ['Coffee House', 'Book Nook'];
const PEOPLE = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];

/** Scopes over several merchants: by names, by category with an exclusion, by merchant id. */
const SCOPES = [
  { merchants: ['Coffee House', 'Corner Shop'] },
  { mcc: ['5812'], exclude_merchants: ['Book Nook'] },
  { merchant_ids: ['m-2'] },
];

/**
 * Clean data where funding decides: offers open to every customer at two merchants, or scoped to
 * several, with budgets small enough to run out, caps, activation and history-reading audiences;
 * many customers, so that one budget is spent by customers of several partitions.
 */
const funded = fc
  .record({
    offers: fc.array(
      fc.record(
        {
          merchant: fc.constantFrom<string | object>(...MERCHANTS, ' coffee  HOUSE ', ...SCOPES),
          discount: fc.integer({ min: 1, max: 20 }),
          budget: fc.record({ amount: fc.constantFrom('0.5', 3, 12), period }),
          customer_cap: fc.oneof(
            fc.record({ amount: fc.constantFrom('0.3', 2), period }),
            fc.record({ count: fc.integer({ min: 1, max: 3 }), period }),
          ),
          requires_activation: fc.boolean(),
          audience: fc.constantFrom('all', 'new', 'returning'),
        },
        { requiredKeys: ['merchant', 'discount', 'audience'] },
      ),
      { minLength: 1, maxLength: 4 },
    ),
    history: fc.array(
      fc.record({
        customer: fc.constantFrom(...PEOPLE),
        merchant: fc.constantFrom(...MERCHANTS),
        day: fc.integer({ min: 1, max: 28 }),
      }),
      { maxLength: 10 },
    ),
    transactions: fc.array(
      fc.record({
        id: fc.option(fc.nat(40), { freq: 8 }),
        customer: fc.constantFrom(...PEOPLE, 'ghost'),
        merchant: fc.constantFrom(...MERCHANTS, 'Corner Shop'),
        amount: fc.integer({ min: 1, max: 300 }),
      }),
      { maxLength: 60 },
    ),
    activations: fc.array(
      fc.record({
        customer_id: fc.constantFrom(...PEOPLE),
        offer: fc.nat(3),
        date: fc.constantFrom('2025-02-01T00:00:00', '2025-03-10T12:00:00'),
      }),
      { maxLength: 10 },
    ),
  })
  .map(({ offers, history, transactions, activations }): Data => {
    const drawn = offers.map(({ merchant, audience, ...rest }, i) => ({
      ...rest,
      offer_id: i + 1,
      name: 'Cashback',
      ...(typeof merchant === 'string' ? { merchant_name: merchant } : { scope: merchant }),
      warranty: 7,
      age: [],
      gender: [],
      category_name: 'Food',
      valid_from: '2025-01-01',
      valid_to: '2025-12-31',
      ...(audience === 'all' ? {} : { audience, lookback_days: 20 }),
    }));
    // Corner Shop is in another category, and its id is the one scope by id.
    const merchant = (name: string) =>
      name === 'Corner Shop'
        ? { id: 'm-2', name, category_code: '5411' }
        : { id: 'm-1', name, category_code: '5812' };
    return {
      offers: drawn,
      customers: PEOPLE.map((customer_id) => ({
        customer_id,
        birthday: '1990-01-01',
        gender: 'F',
        location: { country: 'FR', city: 'Paris' },
      })),
      activations: activations.map(({ offer, ...a }) => ({
        ...a,
        offer_id: 1 + (offer % drawn.length),
      })),
      history: history.map((h, i) => ({
        transaction_id: `h-${i}`,
        customer_id: h.customer,
        date: `2025-02-${String(h.day).padStart(2, '0')}T10:00:00`,
        amount: 20,
        merchant: merchant(h.merchant),
      })),
      transactions: transactions.map((t, i) => ({
        transaction_id: `t-${t.id ?? i}`,
        customer_id: t.customer,
        description: 'card purchase',
        date: new Date(Date.UTC(2025, 2, 1) + i * 7_200_000 * 5).toISOString().slice(0, 19),
        amount: t.amount,
        merchant: merchant(t.merchant),
        location: { country: 'FR', city: 'Paris' },
      })),
    };
  });

describe('the partitions of a parallel replay', () => {
  test('decide as one session, chunk by chunk, and end at the same late transaction, budgets, caps and activations included', async () => {
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
            activations: (s.activations ?? []) as unknown[],
            history: (s.history ?? []) as unknown[],
            transactions: s.transactions as unknown[],
          };
          await expectOneSession(data, partitions, blockSize, lateness);
        },
      ),
      { numRuns: 150 },
    );
  });

  test('decide as one session when budgets shared by every customer run out across partitions', async () => {
    await fc.assert(
      fc.asyncProperty(
        funded,
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 12 }),
        async (data, partitions, blockSize) => {
          await expectOneSession(data, partitions, blockSize, Number.POSITIVE_INFINITY);
        },
      ),
      { numRuns: 150 },
    );
  });
});
