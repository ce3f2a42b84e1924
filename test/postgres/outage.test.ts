/**
 * An outage under a running engine, on a PostgreSQL server of this test's own (started with
 * scripts/pg-cluster.sh, so that stopping it disturbs no other test): while the server is down,
 * calls reject with `StoreUnavailableError` saying so, and the HTTP API answers 503
 * `store_unavailable` with Retry-After; once it is back, the same engine and pool work again,
 * without a restart, and nothing of a failed call was kept.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Store, StoreUnavailableError } from '../../src/store/entry.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { offer } from '../fixtures.js';
import { type Harness, startHarness } from '../http/_harness.js';
import { SKIP_SERVER, warnWhenSkipped } from './_databases.js';

warnWhenSkipped('the outage test (it starts a PostgreSQL server of its own)');

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../scripts/pg-cluster.sh', import.meta.url));
const cluster = (...args: string[]) => run(script, args, { encoding: 'utf8' });

const transaction = (id: string) => ({
  transaction_id: id,
  description: '',
  customer_id: 'c1',
  date: '2025-06-02T09:15:00',
  amount: 20,
  merchant: { id: 'm', name: 'Coffee House', category_code: '5812' },
  location: { country: 'DE', city: 'Berlin' },
});

describe.skipIf(SKIP_SERVER)('a PostgreSQL outage under a running engine', () => {
  let dir = '';
  let store: Store | undefined;
  let http: Harness | undefined;
  beforeAll(async () => {
    const { stdout } = await cluster('start', '--fast');
    const env = Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((l) => l.split('=', 2)),
    );
    dir = env.PG_CLUSTER_DIR as string;
    store = await createPostgresStore({ connectionString: env.DATABASE_URL as string });
    http = await startHarness({ store, partnerIds: ['bank-a'] });
    await http.engine.upsertOffers([offer()]);
    await http.engine.upsertCustomers('bank-a', [
      {
        customer_id: 'c1',
        birthday: '1990-01-01',
        gender: 'f',
        location: { country: 'DE', city: 'Berlin' },
      },
    ]);
  }, 120_000);
  afterAll(async () => {
    await http?.close();
    await store?.close?.();
    if (dir !== '') await cluster('stop', dir);
  });

  it('rejects calls with a clear error (503 over HTTP) while the server is down, and works again once it is back', async () => {
    const h = http as Harness;
    expect((await h.post('bank-a', '/transactions', [transaction('t1')])).status).toBe(200);

    await cluster('halt', dir);
    const down = h.engine.addTransactions('bank-a', [transaction('t2')]);
    await expect(down).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(down).rejects.toThrow(
      /PostgreSQL cannot be reached .*nothing of its unit of work was kept/,
    );
    await expect(
      h.engine.listPayments('bank-a', { date_from: '2025-01-01', date_to: '2025-12-31' }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
    // Plain fetch: the harness's `post` also checks the answer against the OpenAPI document.
    const reply = await fetch(`${h.url}/transactions`, {
      method: 'POST',
      headers: { Token: await h.token('bank-a'), 'content-type': 'application/json' },
      body: JSON.stringify([transaction('t3')]),
    });
    expect(reply.status).toBe(503);
    expect(((await reply.json()) as { error: { code: string } }).error.code).toBe(
      'store_unavailable',
    );
    expect(reply.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);

    await cluster('resume', dir);
    const again = await h.engine.addTransactions('bank-a', [transaction('t2'), transaction('t3')]);
    expect(again.details.payments.map((p) => p.transaction_id)).toEqual(['t2', 't3']);
    const listed = await h.engine.listPayments('bank-a', {
      date_from: '2025-01-01',
      date_to: '2025-12-31',
    });
    expect(listed.transactions.map((p) => p.transaction_id)).toEqual(['t1', 't2', 't3']);
  }, 120_000);
});
