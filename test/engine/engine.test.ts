/**
 * The engine over the memory store beyond the partner API's examples. The tests that go through
 * the store (offers and their events, the cashback event, the unit of work, active offers,
 * explain, history across requests, tenancy, `details`, injected clock and ids, the money options)
 * are in test/engine/_engineOnStore.ts, shared with test/postgres/engineExamples.test.ts; here
 * they run on the memory store, beside a store that returns copies and the argument checks.
 */
import { describe, expect, test } from 'vitest';
import {
  type CashbackEngine,
  createEngine,
  createMemoryPartners,
  createMemoryStore,
  type EngineOptions,
  type PaymentsPage,
} from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';
import { customer, history, offer, tx } from '../fixtures.js';
import { A, counter, describeEngineOnStore, EVERYTHING, NOON } from './_engineOnStore.js';

describeEngineOnStore(async () => createMemoryStore());

/** An engine over a memory store with the fixture offer and customer c1 of bank-a. */
async function ready(): Promise<CashbackEngine> {
  const engine = createEngine({ clock: () => new Date(NOON), ids: counter() });
  await engine.upsertOffers([offer()]);
  await engine.upsertCustomers(A, [customer()]);
  return engine;
}

describe('a store that returns copies of its records', () => {
  test('gives the same results as one that returns the objects it was given', async () => {
    /** A memory store whose reads hand out plain copies, as a store over a database does. */
    function copying(): Store {
      const inner = createMemoryStore();
      const copies = <T extends object>(records: readonly T[]): T[] =>
        records.map((r) => JSON.parse(JSON.stringify(r)) as T);
      return {
        ...inner,
        customers: {
          ...inner.customers,
          get: async (partner, ids) => copies(await inner.customers.get(partner, ids)),
        },
        transactions: {
          ...inner.transactions,
          purchases: async (partner, query) =>
            copies(await inner.transactions.purchases(partner, query)),
        },
      };
    }
    const offers = [
      offer(),
      offer({ offer_id: 2, merchant_name: 'Book Nook', audience: 'returning', discount: 10 }),
      offer({ offer_id: 3, merchant_name: 'Fuel Stop', age: ['18-25'], gender: ['M'] }),
    ];
    const customers = [
      customer(),
      customer({ customer_id: 'c2', birthday: '2004-02-29', gender: ' m ' }),
    ];
    const books = { id: 'm2', name: 'BOOK  nook', category_code: '5942' };
    const fuel = { id: 'm3', name: 'Fuel Stop', category_code: '5541' };
    const run = async (store: Store) => {
      const engine = createEngine({ store, clock: () => new Date(NOON), ids: counter() });
      await engine.upsertOffers(offers);
      await engine.upsertCustomers(A, customers);
      await engine.addHistory(A, [history({ merchant: { name: 'Book Nook' } })]);
      return [
        await engine.addTransactions(A, [
          tx(),
          tx({ transaction_id: 't2', merchant: books }),
          tx({ transaction_id: 't3', customer_id: 'c2', merchant: books }),
          tx({ transaction_id: 't4', customer_id: 'c2', merchant: fuel }),
          tx({ transaction_id: 't5', customer_id: 'c1', merchant: fuel }),
        ]),
        await engine.addTransactions(A, [
          tx({
            transaction_id: 't6',
            customer_id: 'c2',
            merchant: books,
            date: '2025-06-03T10:00:00',
          }),
        ]),
        await engine.listPayments(A, EVERYTHING),
      ];
    };
    const expected = await run(createMemoryStore());
    expect(await run(copying())).toEqual(expected);
    // Book Nook pays returning customers: c1 (the history item) at t2, c2 at t6 (after t3).
    // Fuel Stop pays men of 18–25: c2 (' m ', 21) at t4, not c1 at t5.
    const page = expected[2] as PaymentsPage;
    expect(page.transactions.map((p) => p.transaction_id).sort()).toEqual(['t1', 't2', 't4', 't6']);
  });
});

describe('argument checks', () => {
  const message = (v: string) =>
    `partner must be a non-empty string (the application id), got ${v}`;

  for (const [label, partner, shown] of [
    ['an empty string', '', '""'],
    ['a number', 42, '42'],
    ['undefined', undefined, 'undefined'],
  ] as const) {
    test(`a partner that is ${label} is a TypeError in every partner method`, async () => {
      const engine = await ready();
      const p = partner as unknown as string;
      const calls = [
        () => engine.upsertCustomers(p, [customer()]),
        () => engine.addHistory(p, [history()]),
        () => engine.addTransactions(p, [tx()]),
        () => engine.listPayments(p, EVERYTHING),
        () => engine.explain(p, tx()),
      ];
      for (const call of calls) {
        const err = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(TypeError);
        expect((err as TypeError).message).toBe(message(shown));
      }
    });
  }

  test('transactions that are not an array are a TypeError', async () => {
    const engine = await ready();
    const notArray = (v: unknown) => v as unknown[];
    await expect(engine.addTransactions(A, notArray(tx()))).rejects.toThrow(
      new TypeError('transactions must be an array, got an object'),
    );
    await expect(engine.addHistory(A, notArray('h1'))).rejects.toThrow(
      new TypeError('transactions must be an array, got the string "h1"'),
    );
    await expect(engine.upsertCustomers(A, notArray(null))).rejects.toThrow(
      new TypeError('customers must be an array, got null'),
    );
    expect(await engine.store.transactions.existing(A, ['t1', 'h1'])).toEqual([]);
  });

  test('bad core options are a RangeError at creation', () => {
    expect(() => createEngine({ timeZone: 'Mars/Olympus' })).toThrow(
      new RangeError("Unknown time zone 'Mars/Olympus'"),
    );
    expect(() => createEngine({ scale: 11 })).toThrow(RangeError);
  });

  test('an unknown option is a TypeError naming it, not an engine quietly in UTC', () => {
    expect(() => createEngine({ timezone: 'Europe/Riga' } as EngineOptions)).toThrow(
      new TypeError(
        "createEngine options: unknown option 'timezone'; did you mean 'timeZone'? " +
          '(known: store, clock, ids, partners, timeZone, scale, rounding, currency, operators, lateReturns)',
      ),
    );
    expect(() => createEngine({ maxRecords: 10 } as EngineOptions)).toThrow(TypeError);
    expect(() => createEngine(null as unknown as EngineOptions)).toThrow(
      new TypeError('createEngine options must be an object, got null'),
    );
  });

  test('every documented option is known', () => {
    const engine = createEngine({
      store: createMemoryStore(),
      clock: () => new Date(NOON),
      ids: counter(),
      partners: createMemoryPartners(),
      timeZone: 'Europe/Riga',
      scale: 2,
      rounding: 'half-even',
      currency: 'EUR',
      operators: undefined,
    });
    expect(engine.options.timeZone).toBe('Europe/Riga');
  });
});

describe('activations a batch reads', () => {
  test('one call for the batch, only when a candidate offer requires activation', async () => {
    const inner = createMemoryStore();
    const queries: unknown[] = [];
    const store: Store = {
      ...inner,
      activations: {
        get: async (partner, query) => {
          queries.push(query);
          return inner.activations.get(partner, query);
        },
        add: (partner, activations) => inner.activations.add(partner, activations),
      },
    };
    const engine = createEngine({ store, clock: () => new Date(NOON), ids: counter() });
    await engine.upsertOffers([
      offer(),
      offer({ offer_id: 2, requires_activation: true }),
      offer({ offer_id: 3, merchant_name: 'Bakery' }),
    ]);
    await engine.upsertCustomers(A, [customer(), customer({ customer_id: 'c2' })]);
    const bakery = { id: 'm2', name: 'Bakery', category_code: '5462' };
    await engine.addTransactions(A, [tx({ merchant: bakery })]);
    expect(queries).toEqual([]);
    await engine.addTransactions(A, [
      tx({ transaction_id: 't2' }),
      tx({ transaction_id: 't3', customer_id: 'c2' }),
      tx({ transaction_id: 't4', customer_id: 'c2', merchant: bakery }),
    ]);
    expect(queries).toEqual([{ customerIds: ['c1', 'c2'], offerIds: [2] }]);
  });
});
