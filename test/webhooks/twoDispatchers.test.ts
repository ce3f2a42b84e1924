/**
 * Two dispatchers drain one outbox of 2,000 events while both are healthy: every event arrives
 * exactly once. On a PostgreSQL server (DATABASE_URL) each has its own pool; on PGlite they share
 * one database; on memory, one store.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import type { Store } from '../../src/store/entry.js';
import { createPgliteStore, createPostgresStore, migrate } from '../../src/store/postgres/index.js';
import { createWebhookDispatcher, generateWebhookSecret } from '../../src/webhooks/index.js';
import {
  freshServerDatabase,
  SKIP_SERVER,
  sharedPglite,
  warnWhenSkipped,
} from '../postgres/_databases.js';
import { type Receiver, startReceiver } from './_receiver.js';

const EVENTS = 2_000;
const PARTNERS = ['bank-a', 'bank-b'];
const SECRET = generateWebhookSecret();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function fill(store: Store): Promise<void> {
  for (let i = 0; i < EVENTS; i += 100) {
    const partner = PARTNERS[(i / 100) % 2] as string;
    await store.outbox.add(
      partner,
      Array.from({ length: 100 }, (_, k) => ({
        id: `e${i + k}`,
        type: 'cashback.created' as const,
        payload: { n: i + k },
        created_at: '2025-06-01T12:00:00.000Z',
      })),
    );
  }
}

async function drainWithTwo(stores: readonly [Store, Store], receiver: Receiver): Promise<void> {
  const partners = PARTNERS.map((application_id) => ({
    application_id,
    webhook_url: receiver.url,
    webhook_secret: SECRET,
  }));
  const dispatchers = stores.map((store) =>
    createWebhookDispatcher({ store, partners, allowLocalUrls: true, concurrency: 16 }),
  );
  const made = await Promise.all(dispatchers.map((d) => d.runOnce()));
  const ids = receiver.received.map((r) => r.headers['webhook-id']);
  expect(new Set(ids).size).toBe(EVENTS);
  expect(ids).toHaveLength(EVENTS);
  expect(made.reduce((a, b) => a + b, 0)).toBe(EVENTS);
  expect(made.every((n) => n > 0)).toBe(true);
}

describe('two dispatchers on one outbox deliver 2,000 events without a duplicate', () => {
  test('on one memory store', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const store = createMemoryStore();
    await fill(store);
    await drainWithTwo([store, store], receiver);
  }, 60_000);

  test('on one PGlite database', async () => {
    const shared = sharedPglite();
    cleanups.push(() => shared.close());
    const db = await shared.db();
    await migrate({ db });
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const a = await createPgliteStore({ db });
    const b = await createPgliteStore({ db });
    await fill(a);
    await drainWithTwo([a, b], receiver);
  }, 120_000);

  warnWhenSkipped('two dispatchers on one PostgreSQL server');
  test.skipIf(SKIP_SERVER)(
    'on one PostgreSQL server, each with its own pool (SKIP LOCKED)',
    async () => {
      const database = await freshServerDatabase();
      cleanups.push(() => database.drop());
      await migrate({ connectionString: database.url });
      const a = await createPostgresStore({ connectionString: database.url });
      cleanups.push(async () => a.close?.());
      const b = await createPostgresStore({ connectionString: database.url });
      cleanups.push(async () => b.close?.());
      const receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      await fill(a);
      await drainWithTwo([a, b], receiver);
    },
    120_000,
  );
});
