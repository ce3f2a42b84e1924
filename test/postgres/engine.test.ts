/**
 * The engine over the PostgreSQL store, on PGlite (always) and on a server (DATABASE_URL): it
 * decides exactly as `replay` of the same inputs however the transactions are split into
 * requests, and a request of 1,000 transactions costs a fixed handful of statements.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';
import { createPgliteStore, createPostgresStore, migrate } from '../../src/store/postgres/index.js';
import { decidesAsReplay } from '../engine/_decidesAsReplay.js';
import { offer } from '../fixtures.js';
import {
  EMPTY,
  freshServerDatabase,
  SKIP_SERVER,
  sharedPglite,
  warnWhenSkipped,
} from './_databases.js';

warnWhenSkipped('the engine tests on a PostgreSQL server');

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

  it('with budgets and caps that run out, too', async () => {
    await decidesAsReplay(() => fresh(), 15, true);
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
    // offers.revision, customers.get, transactions.existing, purchases; then BEGIN, the offers'
    // and the partner's confirmation locks, the lock of the customers whose purchases it read,
    // insert, purchases again, payments, outbox, COMMIT; the revision again: never one per item.
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(13);
    const customerLocks = () =>
      statements.filter((s) => s.includes('cashback_customers') && s.includes('FOR NO KEY UPDATE'));
    expect(customerLocks()).toHaveLength(1);

    // The same offer reading no history: the batch reads no purchases and holds no customer.
    await engine.upsertOffers([offer()]);
    statements.length = 0;
    const plain = await engine.addTransactions(
      'bank-a',
      transactions.map((t) => ({ ...t, transaction_id: `p-${t.transaction_id}` })),
    );
    expect(plain.details.payments).toHaveLength(500);
    expect(customerLocks()).toEqual([]);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(11);
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
            statements.push(text.replace(/\s+/g, ' ').slice(0, 240));
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
