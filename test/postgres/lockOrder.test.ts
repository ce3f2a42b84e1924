/**
 * One lock order for every unit of work on a PostgreSQL server (docs/postgres.md, Lock order):
 * engines paying and returning on funded offers while another reloads the offers every 50 ms,
 * each reload giving an offer a cap it did not have (which recounts its counters), meet no
 * deadlock: the server's own count of deadlocks detected in the database stays at 0.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';
import { createPostgresStore, migrate } from '../../src/store/postgres/index.js';
import { customer, offer, tx } from '../fixtures.js';
import { freshServerDatabase, SKIP_SERVER, warnWhenSkipped } from './_databases.js';

warnWhenSkipped('the lock order of units of work on a PostgreSQL server');

const ENGINES = 4;
/** A clock before the payments' days: returns arrive in time, and adjust. */
const BEFORE_PAYMENT = () => new Date('2025-06-03T12:00:00Z');
const ROUNDS = 12;
const CUSTOMERS = ['c1', 'c2', 'c3'];

/** The deadlocks the server has detected in the database so far. */
async function deadlocks(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Statistics are flushed at the end of a transaction, at most once a second otherwise.
    await client.query('SELECT pg_stat_force_next_flush()');
    const r = await client.query(
      'SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return r.rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe.skipIf(SKIP_SERVER)('the lock order of units of work on a PostgreSQL server', () => {
  let database: Awaited<ReturnType<typeof freshServerDatabase>> | undefined;
  const stores: Store[] = [];
  beforeAll(async () => {
    database = await freshServerDatabase();
    await migrate({ connectionString: database.url });
  });
  afterAll(async () => {
    for (const s of stores) await s.close?.();
    await database?.drop();
  });

  it('a recount that starts while a return is changing a payment waits for it: no deadlock', async () => {
    const url = (database as { url: string }).url;
    const inner = await createPostgresStore({ connectionString: url, poolSize: 4 });
    stores.push(inner);
    let adjusted: () => void = () => undefined;
    const adjusting = new Promise<void>((r) => {
      adjusted = r;
    });
    let resume: () => void = () => undefined;
    const resumed = new Promise<void>((r) => {
      resume = r;
    });
    // The return's unit stops once it has changed the payment, before it gives back.
    const pausing: Store = {
      ...inner,
      transaction: (fn) =>
        inner.transaction((s) =>
          fn({
            ...s,
            payments: {
              ...s.payments,
              adjust: async (partner, changes) => {
                const changed = await s.payments.adjust(partner, changes);
                adjusted();
                await resumed;
                return changed;
              },
            },
          }),
        ),
    };
    const funded = offer({
      offer_id: 7,
      merchant_name: 'Pause',
      budget: { amount: 1_000 },
      customer_cap: { count: 9, period: 'offer' },
    });
    const engine = createEngine({ store: inner, clock: BEFORE_PAYMENT });
    await engine.upsertOffers([funded]);
    await engine.upsertCustomers('bank-p', [customer()]);
    const paid = await engine.addTransactions('bank-p', [
      tx({
        transaction_id: 'p1',
        amount: 40,
        merchant: { id: 'm', name: 'Pause', category_code: '1' },
      }),
    ]);
    expect(paid.payments).toHaveLength(1);
    const before = await deadlocks(url);
    const returning = createEngine({ store: pausing, clock: BEFORE_PAYMENT }).addReturns('bank-p', [
      { return_id: 'pr1', transaction_id: 'p1', date: '2025-06-03T10:00:00', amount: 10 },
    ]);
    await adjusting;
    // The return gives back to the cap it was decided with. Meanwhile the offer loses its cap,
    // then gains it again: a recount of the cap's counters, the one the return gives back to.
    const { customer_cap: _, ...uncapped } = funded;
    await engine.upsertOffers([uncapped]);
    const reload = engine.upsertOffers([funded]);
    // Long enough for the recount to hold the cap and wait for the return's payment.
    await new Promise((r) => setTimeout(r, 300));
    resume();
    await Promise.all([returning, reload]);
    expect((await deadlocks(url)) - before).toBe(0);
  });

  it('paying, returning and reloading (with recounts) at once meet no deadlock', async () => {
    const url = (database as { url: string }).url;
    const open = async () => {
      const s = await createPostgresStore({ connectionString: url, poolSize: 4 });
      stores.push(s);
      return s;
    };
    const budgeted = offer({ discount: 10, budget: { amount: 1_000_000, period: 'day' } });
    const setup = createEngine({ store: await open(), clock: BEFORE_PAYMENT });
    await setup.upsertOffers([budgeted]);
    await setup.upsertCustomers(
      'bank-a',
      CUSTOMERS.map((id) => customer({ customer_id: id })),
    );
    const before = await deadlocks(url);
    let reloading = true;
    const reloader = (async () => {
      const engine = createEngine({ store: await open(), clock: BEFORE_PAYMENT });
      for (let i = 0; reloading; i++) {
        // Every other reload gives the offer a cap it did not have: a recount.
        const cap = i % 2 === 0 ? { customer_cap: { count: 1_000, period: 'week' } } : {};
        await engine.upsertOffers([{ ...budgeted, name: `reload ${i}`, ...cap }]);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const workers = Array.from({ length: ENGINES }, async (_, k) => {
      const engine = createEngine({ store: await open(), clock: BEFORE_PAYMENT });
      for (let round = 0; round < ROUNDS; round++) {
        const ids = CUSTOMERS.map((c) => `${k}-${round}-${c}`);
        await engine.addTransactions(
          'bank-a',
          ids.map((id, j) => tx({ transaction_id: id, customer_id: CUSTOMERS[j], amount: 40 })),
        );
        await engine.addReturns(
          'bank-a',
          ids.map((id) => ({
            return_id: `r-${id}`,
            transaction_id: id,
            date: '2025-06-03T10:00:00',
            amount: 10,
          })),
        );
      }
    });
    try {
      await Promise.all(workers);
    } finally {
      reloading = false;
      await reloader;
    }
    expect((await deadlocks(url)) - before).toBe(0);
    const listed = await setup.listPayments('bank-a', {
      date_from: '2025-01-01',
      date_to: '2025-12-31',
      page_size: 1000,
    });
    // Each payment of 4.00 lowered by its return of a quarter of the purchase: 3.00 left.
    expect(listed.total_count).toBe(ENGINES * ROUNDS * CUSTOMERS.length);
    expect(new Set(listed.transactions.map((p) => p.cashback_amount))).toEqual(new Set([3]));
  }, 60_000);
});
