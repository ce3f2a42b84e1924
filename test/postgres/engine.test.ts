/**
 * The engine over the PostgreSQL store, on PGlite (always) and on a server (DATABASE_URL): it
 * decides exactly as `replay` of the same inputs however the transactions are split into
 * requests, and a request of 1,000 transactions costs a fixed handful of statements.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, replay, type Store, type TransactionError } from '../../src/index.js';
import { createPgliteStore, createPostgresStore, migrate } from '../../src/store/postgres/index.js';
import { scenarioArbitrary } from '../../src/testing/index.js';
import { offer } from '../fixtures.js';
import { optionsArbitrary } from '../properties/_options.js';
import {
  EMPTY,
  freshServerDatabase,
  SKIP_SERVER,
  sharedPglite,
  warnWhenSkipped,
} from './_databases.js';

warnWhenSkipped('the engine tests on a PostgreSQL server');

/** The items cut at the given positions into consecutive requests. */
function requestsOf<T>(items: readonly T[], cuts: readonly number[]): T[][] {
  const at = [...new Set(cuts.map((c) => c % (items.length + 1)))].sort((a, b) => a - b);
  const requests: T[][] = [];
  let from = 0;
  for (const cut of [...at, items.length]) {
    requests.push(items.slice(from, cut));
    from = cut;
  }
  return requests;
}

/** A request's `#<index>` key counts within its request; replay's counts from the start. */
function rekeyed(errors: readonly TransactionError[], offset: number): TransactionError[] {
  return errors.map((e) =>
    e.key.startsWith('#') ? { ...e, key: `#${Number(e.key.slice(1)) + offset}` } : e,
  );
}

/** The replay property over a fresh, empty store from `freshStore`. */
async function decidesAsReplay(freshStore: () => Promise<Store>, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      scenarioArbitrary({ duplicateRate: 0.2, conditions: true }),
      optionsArbitrary,
      fc.array(fc.nat(), { maxLength: 6 }),
      async (scenario, options, cuts) => {
        const expected = replay(scenario, options);
        const store = await freshStore();
        try {
          let n = 0;
          const engine = createEngine({ ...options, store, ids: () => `event-${++n}` });
          const partner = 'bank-a';
          await engine.upsertOffers(scenario.offers);
          const customers = await engine.upsertCustomers(partner, scenario.customers);
          expect(customers.details.errors).toEqual(expected.rejected.customers);
          const history = await engine.addHistory(partner, scenario.history);
          expect(history.details.errors).toEqual(expected.rejected.history);
          const payments = [];
          const errors = [];
          let offset = 0;
          for (const request of requestsOf(scenario.transactions, cuts)) {
            const r = await engine.addTransactions(partner, request);
            payments.push(...r.details.payments);
            errors.push(...rekeyed(r.details.errors, offset));
            offset += request.length;
          }
          expect(payments).toEqual(expected.payments);
          expect(errors).toEqual(expected.errors);
          const listed = await engine.listPayments(partner, {
            date_from: '0001-01-01',
            date_to: '9999-12-31',
            page_size: 1000,
          });
          expect(listed.total_count).toBe(expected.payments.length);
          expect(listed.transactions.map((p) => p.transaction_id).sort()).toEqual(
            expected.payments.map((p) => p.transaction_id).sort(),
          );
        } finally {
          await store.close?.();
        }
      },
    ),
    { numRuns },
  );
}

describe('the engine over the PGlite store', () => {
  const shared = sharedPglite();
  afterAll(() => shared.close());
  const fresh = async (db?: PGlite): Promise<Store> => {
    const database = db ?? (await shared.db());
    await migrate({ db: database });
    await database.exec(EMPTY);
    return createPgliteStore({ db: database });
  };

  it('pays and rejects exactly as replay, however the transactions are split into requests', async () => {
    await decidesAsReplay(() => fresh(), 25);
  });

  it('sends a fixed handful of statements for addTransactions of 1,000 transactions', async () => {
    const db = await shared.db();
    const statements: string[] = [];
    const counted = countingPglite(db, statements);
    const store = await fresh(counted);
    const engine = createEngine({ store });
    await engine.upsertOffers([offer({ audience: 'new', lookback_days: 30 })]);
    const customers = Array.from({ length: 1000 }, (_, i) => ({
      customer_id: `c${i}`,
      birthday: '1990-01-01',
      gender: 'female',
      location: { country: 'DE', city: 'Berlin' },
    }));
    await engine.upsertCustomers('bank-a', customers);
    const transactions = customers.map((c, i) => ({
      transaction_id: `t${i}`,
      description: '',
      customer_id: c.customer_id,
      date: '2025-06-02T09:15:00',
      amount: 12.5,
      merchant: { id: 'm', name: i % 2 === 0 ? 'Coffee House' : 'Bakery', category_code: '5812' },
      location: { country: 'DE', city: 'Berlin' },
    }));
    statements.length = 0;
    const result = await engine.addTransactions('bank-a', transactions);
    expect(result.details.payments).toHaveLength(500);
    // offers.revision, customers.get, transactions.existing, purchases; then BEGIN, the
    // customers' lock, insert, purchases again, payments, outbox, COMMIT: never one per item.
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(12);
    await store.close?.();
  });
});

/** `db` with every statement it runs (on itself or in a transaction) pushed to `statements`. */
function countingPglite(db: PGlite, statements: string[]): PGlite {
  const wrap = <T extends PGlite | Transaction>(target: T): T =>
    new Proxy(target, {
      get(t, prop) {
        if (prop === 'query' || prop === 'exec') {
          return (text: string, ...rest: unknown[]) => {
            statements.push(text.replace(/\s+/g, ' ').slice(0, 80));
            return (t[prop] as (...a: unknown[]) => unknown).call(t, text, ...rest);
          };
        }
        if (prop === 'transaction') {
          return (fn: (tx: Transaction) => Promise<unknown>) => {
            statements.push('BEGIN … COMMIT');
            return (t as PGlite).transaction((tx) => fn(wrap(tx)));
          };
        }
        const value = Reflect.get(t, prop, t);
        return typeof value === 'function' ? value.bind(t) : value;
      },
    });
  return wrap(db);
}

describe.skipIf(SKIP_SERVER)('the engine over the PostgreSQL store on a server', () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  beforeAll(async () => {
    database = await freshServerDatabase();
    await migrate({ connectionString: database.url });
  });
  afterAll(() => database?.drop());

  it('pays and rejects exactly as replay, however the transactions are split into requests', async () => {
    const url = (database as { url: string }).url;
    await decidesAsReplay(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(EMPTY).finally(() => client.end());
      return createPostgresStore({ connectionString: url });
    }, 25);
  });
});
