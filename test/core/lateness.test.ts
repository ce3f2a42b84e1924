/**
 * A streaming replay keeps purchases only as long as a lookback can still read them
 * (`maxLatenessDays`, docs/replay.md): pruning never changes a decision, a transaction too late to
 * decide exactly throws before anything of its chunk is recorded, and memory stays flat over a
 * long stream in date order.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  createReplay,
  LateTransactionError,
  type Outcome,
  parseTransaction,
  resolveOptions,
} from '../../src/index.js';
import { scenarioArbitrary } from '../../src/testing/index.js';
import { customer, history, offer, tx } from '../fixtures.js';
import { optionsArbitrary } from '../properties/_options.js';

const returning = (over: Record<string, unknown> = {}) =>
  offer({ audience: 'returning', lookback_days: 30, ...over });

/** `2025-01-01` plus `n` days, at noon. */
function dayPlus(n: number): string {
  const d = new Date(Date.UTC(2025, 0, 1 + n, 12));
  return d.toISOString().slice(0, 19);
}

const codes = (outcomes: readonly Outcome[]) => outcomes.map((o) => (o.ok ? 'paid' : o.error.code));

describe('maxLatenessDays', () => {
  test('a transaction more than maxLatenessDays before the newest one throws, naming both days', () => {
    const session = createReplay(
      { offers: [returning()], customers: [customer()] },
      { maxLatenessDays: 5 },
    );
    session.push([tx({ transaction_id: 'a', date: '2025-06-20T10:00:00' })]);
    let error: unknown;
    try {
      session.push([
        tx({ transaction_id: 'b', date: '2025-06-16T10:00:00' }),
        tx({ transaction_id: 'c', date: '2025-06-14T10:00:00' }),
      ]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LateTransactionError);
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toMatchObject({
      key: 'c',
      day: '2025-06-14',
      newestDay: '2025-06-20',
      maxLatenessDays: 5,
    });
    expect((error as Error).message).toContain('maxLatenessDays');
  });

  test('a chunk that threw leaves nothing behind: ids, keys and totals are as before it', () => {
    const late = createReplay(
      { offers: [returning()], customers: [customer()] },
      { maxLatenessDays: 0 },
    );
    const clean = createReplay(
      { offers: [returning()], customers: [customer()] },
      { maxLatenessDays: 0 },
    );
    const first = [tx({ transaction_id: 'a', date: '2025-06-20T10:00:00' })];
    late.push(first);
    clean.push(first);
    expect(() =>
      late.push([
        tx({ transaction_id: 'b', date: '2025-06-21T10:00:00' }),
        42,
        tx({ transaction_id: 'old', date: '2025-06-01T10:00:00' }),
      ]),
    ).toThrow(LateTransactionError);
    const next = [tx({ transaction_id: 'b', date: '2025-06-21T10:00:00' }), 42];
    expect(late.push(next)).toEqual(clean.push(next));
    expect(late.summary()).toEqual(clean.summary());
    expect(late.retained()).toEqual(clean.retained());
  });

  test('only stored transactions count: an old resubmission is a duplicate, an unknown customer an error', () => {
    const session = createReplay(
      { offers: [returning()], customers: [customer()] },
      { maxLatenessDays: 0 },
    );
    session.push([
      tx({ transaction_id: 'a', date: '2025-03-01T10:00:00' }),
      tx({ transaction_id: 'b', date: '2025-06-20T10:00:00' }),
    ]);
    const again = session.push([
      tx({ transaction_id: 'a', date: '2025-03-01T10:00:00' }),
      tx({ transaction_id: 'z', customer_id: 'nobody', date: '2025-03-01T10:00:00' }),
    ]);
    expect(codes(again)).toEqual(['duplicate_transaction', 'customer_not_found']);
  });

  test('merchants whose offers read no history accept any order', () => {
    const session = createReplay(
      {
        offers: [offer(), returning({ offer_id: 2, merchant_name: 'Bakery' })],
        customers: [customer()],
      },
      { maxLatenessDays: 0 },
    );
    session.push([
      tx({
        transaction_id: 'a',
        date: '2025-06-20T10:00:00',
        merchant: { id: '', name: 'Bakery', category_code: '' },
      }),
    ]);
    expect(codes(session.push([tx({ transaction_id: 'b', date: '2025-01-05T10:00:00' })]))).toEqual(
      ['paid'],
    );
  });

  test('keeps exactly what a transaction at the lateness limit can read with the longest lookback', () => {
    const session = createReplay(
      {
        offers: [returning({ lookback_days: 30 })],
        customers: [customer(), customer({ customer_id: 'c2' })],
      },
      { maxLatenessDays: 2 },
    );
    const at = (id: string, c: string, day: number) =>
      tx({ transaction_id: id, customer_id: c, date: dayPlus(day) });
    session.push([at('a', 'c1', 0)]);
    // c2 moves the newest day to 32; c1's next purchase (31) touches c1's list, which is pruned.
    session.push([at('b', 'c2', 32)]);
    session.push([at('c', 'c1', 31)]);
    // Day 30 is 2 days late, so allowed, and its 30-day lookback starts on day 0: purchase `a`.
    expect(codes(session.push([at('d', 'c1', 30)]))).toEqual(['paid']);
    // One more day back is late.
    expect(() => session.push([at('e', 'c1', 29)])).toThrow(LateTransactionError);
  });

  test('history moves the newest day on too', () => {
    const session = createReplay(
      {
        offers: [returning()],
        customers: [customer()],
        history: [
          history({ transaction_id: 'h0', date: '2025-05-20T12:00:00' }),
          history({ date: '2025-06-01T12:00:00' }),
        ],
      },
      { maxLatenessDays: 10 },
    );
    expect(() => session.push([tx({ date: '2025-05-01T10:00:00' })])).toThrow(LateTransactionError);
    expect(codes(session.push([tx({ date: '2025-05-25T10:00:00' })]))).toEqual(['paid']);
  });

  test('refuses a negative, fractional or non-numeric maxLatenessDays', () => {
    const data = { offers: [offer()], customers: [customer()] };
    for (const bad of [-1, 1.5, Number.NaN, '3' as unknown as number]) {
      expect(() => createReplay(data, { maxLatenessDays: bad })).toThrow(
        'maxLatenessDays must be a whole number of at least 0 or Infinity',
      );
    }
    expect(() => createReplay(data, { maxLatenessDays: Infinity })).not.toThrow();
  });

  test('replay of a whole array accepts any order by default; a session keeps 31 days', () => {
    const data = { offers: [returning()], customers: [customer()] };
    const transactions = [
      tx({ transaction_id: 'a', date: '2025-06-20T10:00:00' }),
      tx({ transaction_id: 'b', date: '2025-01-02T10:00:00' }),
    ];
    expect(() => createReplay(data).push(transactions)).toThrow(LateTransactionError);
    expect(() =>
      createReplay(data, { maxLatenessDays: 31 }).push([
        transactions[0],
        tx({ transaction_id: 'b', date: '2025-05-20T10:00:00' }),
      ]),
    ).not.toThrow();
  });

  test('memory stays flat over a year of daily purchases in date order', () => {
    const data = {
      offers: [returning({ lookback_days: 30 })],
      customers: [customer(), customer({ customer_id: 'c2' })],
    };
    const bounded = createReplay(data, { maxLatenessDays: 3 });
    const unbounded = createReplay(data, { maxLatenessDays: Infinity });
    for (let day = 0; day < 365; day++) {
      const chunk = ['c1', 'c2'].map((c) =>
        tx({ transaction_id: `${c}-${day}`, customer_id: c, date: dayPlus(day) }),
      );
      expect(bounded.push(chunk)).toEqual(unbounded.push(chunk));
    }
    expect(unbounded.retained()).toEqual({
      customers: 2,
      transactionIds: 730,
      purchases: 730,
      returnable: 0,
    });
    const kept = bounded.retained();
    expect(kept.transactionIds).toBe(730);
    // Per customer: the 30-day lookback, 3 days of lateness and the newest day.
    expect(kept.purchases).toBeLessThanOrEqual(2 * (30 + 3 + 1));
  });
});

/**
 * Scenarios whose offers mostly read history over short lookbacks, so that a session with a small
 * `maxLatenessDays` drops purchases often (the scenario arbitrary draws lookbacks up to 400 days),
 * with few customers and merchants so that their purchases come back.
 */
const shortLookbackScenario = fc
  .tuple(
    scenarioArbitrary({
      duplicateRate: 0.2,
      customerIds: ['c1', 'c2'],
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
  .map(([scenario, draws]) => ({
    ...scenario,
    offers: scenario.offers.map((o) => ({ ...(o as object), ...draws.next().value })),
  }));

describe('pruning never changes a decision', () => {
  test('a session with any maxLatenessDays either throws LateTransactionError or decides as one that keeps everything', () => {
    fc.assert(
      fc.property(
        shortLookbackScenario,
        optionsArbitrary,
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 8 }),
        (scenario, options, maxLatenessDays, chunkSize) => {
          const bounded = createReplay(scenario, { ...options, maxLatenessDays });
          const everything = createReplay(scenario, { ...options, maxLatenessDays: Infinity });
          for (let i = 0; i < scenario.transactions.length; i += chunkSize) {
            const chunk = scenario.transactions.slice(i, i + chunkSize);
            let got: readonly Outcome[];
            try {
              got = bounded.push(chunk);
            } catch (e) {
              if (e instanceof LateTransactionError) return;
              throw e;
            }
            expect(got).toEqual(everything.push(chunk));
          }
          expect(bounded.summary()).toEqual(everything.summary());
        },
      ),
      { numRuns: 200 },
    );
  });

  test('transactions in date order after the history never throw, and decide as with everything kept', () => {
    fc.assert(
      fc.property(
        shortLookbackScenario,
        optionsArbitrary,
        fc.integer({ min: 0, max: 5 }),
        (scenario, options, maxLatenessDays) => {
          const zone = resolveOptions(options).timeZone;
          const dayOf = (item: unknown, i: number): number => {
            const r = parseTransaction(item, i, zone);
            return r.ok ? r.value.when.day : Number.NEGATIVE_INFINITY;
          };
          const days = scenario.transactions.map(dayOf);
          const order = days
            .map((_, i) => i)
            .sort((a, b) => (days[a] as number) - (days[b] as number));
          const sorted = order.map((i) => scenario.transactions[i]);
          const first = Math.min(...days.filter(Number.isFinite));
          // History no later than the first transaction, so nothing is late against it.
          const historyDays = (scenario.history ?? []).map((h, i) => {
            const r = parseTransaction(h, i, zone, true);
            return r.ok ? r.value.when.day : Number.NEGATIVE_INFINITY;
          });
          const data = {
            ...scenario,
            history: (scenario.history ?? []).filter((_, i) => (historyDays[i] as number) <= first),
          };
          const bounded = createReplay(data, { ...options, maxLatenessDays });
          const everything = createReplay(data, { ...options, maxLatenessDays: Infinity });
          expect(bounded.push(sorted)).toEqual(everything.push(sorted));
        },
      ),
      { numRuns: 200 },
    );
  });
});
