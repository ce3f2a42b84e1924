/**
 * The confirmation timer of a service (docs/http.md, "The service's lifecycle"): `startService`
 * calls `engine.confirmDue()` once it listens and again every `intervalMs`, so due payments get
 * their `cashback.confirmed` event without anyone asking; a call that fails is reported and tried
 * again at the next tick, and the service goes on serving; `stop()` clears the timer at once,
 * lets a call in flight finish before the store closes, and leaves nothing that calls again.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createEngine, createMemoryStore } from '../../src/engine/entry.js';
import {
  hashApplicationKey,
  type Service,
  type ServiceOptions,
  startService,
} from '../../src/http/index.js';
import type { ConfirmationRepository, Store, StoreSession } from '../../src/store/entry.js';
import { generateWebhookSecret, verifyWebhook } from '../../src/webhooks/index.js';
import { customer, offer, tx } from '../fixtures.js';
import { TOKEN_SECRET } from '../http/_harness.js';
import { type Receiver, startReceiver } from '../webhooks/_receiver.js';

const A = 'bank-a';
let service: Service | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await service?.stop();
  await receiver?.close();
  service = undefined;
  receiver = undefined;
  vi.restoreAllMocks();
});

/** Waits until `test()` holds, checking every 10 ms, for at most 10 s. */
async function waitFor(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (test()) return;
    await new Promise((done) => setTimeout(done, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * A memory store whose units of work see `confirmations.take` through `wrap`: how the tests count,
 * fail and hold the confirmations of `confirmDue()`.
 */
function storeTaking(
  wrap: (take: ConfirmationRepository['take']) => ConfirmationRepository['take'],
  inner: Store = createMemoryStore(),
): Store {
  const session = (s: StoreSession): StoreSession =>
    new Proxy(s, {
      get(target, key) {
        if (key !== 'confirmations') return Reflect.get(target, key, target);
        const take = target.confirmations.take.bind(target.confirmations);
        return { take: wrap(take) };
      },
    });
  return { ...inner, transaction: (fn) => inner.transaction((s) => fn(session(s))) };
}

/** Pays t1 (5, due 2025-06-16) and t2 (0.5, due 2025-06-16) of bank-a on `store`. */
async function paid(store: Store): Promise<void> {
  const engine = createEngine({ store, clock: () => new Date('2025-06-02T12:00:00Z') });
  await engine.upsertOffers([offer()]);
  await engine.upsertCustomers(A, [customer()]);
  const r = await engine.addTransactions(A, [
    tx({ amount: 100 }),
    tx({ transaction_id: 't2', amount: 10 }),
  ]);
  expect(r.payments).toHaveLength(2);
}

/** The outbox's `cashback.confirmed` events of bank-a. */
async function confirmedEvents(store: Store) {
  const events = await store.outbox.list(A, { limit: 1000 });
  return events.filter((e) => e.type === 'cashback.confirmed');
}

async function start(over: Partial<ServiceOptions>): Promise<Service> {
  service = await startService({
    store: createMemoryStore(),
    partners: [
      { application_id: A, application_key_hash: await hashApplicationKey(`${A}-key-0123456789`) },
    ],
    tokenSecret: TOKEN_SECRET,
    server: { port: 0, host: '127.0.0.1' },
    ...over,
  });
  return service;
}

describe('the confirmation timer of startService', () => {
  test('confirms the payments due at start, and delivers their cashback.confirmed, signed', async () => {
    const store = createMemoryStore();
    await paid(store);
    receiver = await startReceiver();
    const secret = generateWebhookSecret();
    const confirmed: unknown[] = [];
    await start({
      store,
      partners: [{ application_id: A, webhook_url: receiver.url, webhook_secret: secret }],
      webhooks: { allowLocalUrls: true, log: () => undefined },
      confirmDue: { onConfirmed: (r) => confirmed.push(r) },
    });
    await waitFor(() => confirmed.length === 1, 'the confirmation at start');
    expect(confirmed).toEqual([{ events: 1, payments: 2 }]);
    const events = await confirmedEvents(store);
    expect(events).toHaveLength(1);
    await waitFor(
      () => receiver?.received.some((r) => r.body.includes('cashback.confirmed')) === true,
      'the delivery',
    );
    const delivery = receiver.received.find((r) => r.body.includes('cashback.confirmed'));
    const body = verifyWebhook(secret, delivery?.body ?? '', delivery?.headers ?? {}) as {
      event_id: string;
      data: { records: { transaction_id: string; status: string; cashback_amount: number }[] };
    };
    expect(body.event_id).toBe(events[0]?.id);
    expect(body.data.records.map((r) => [r.transaction_id, r.cashback_amount, r.status])).toEqual([
      ['t1', 5, 'confirmed'],
      ['t2', 0.5, 'confirmed'],
    ]);
  });

  test('confirms at each tick what has become due since, each payment once', async () => {
    const store = createMemoryStore();
    await paid(store);
    let now = new Date('2025-06-15T12:00:00Z');
    let calls = 0;
    const counted = storeTaking(
      (take) => (q) => {
        calls++;
        return take(q);
      },
      store,
    );
    await start({ store: counted, engine: { clock: () => now }, confirmDue: { intervalMs: 20 } });
    await waitFor(() => calls >= 3, 'a few ticks');
    expect(await confirmedEvents(store)).toEqual([]);
    // The payment day begins: a tick confirms both payments, and later ticks add nothing.
    now = new Date('2025-06-16T00:00:00Z');
    await waitFor(() => calls >= 8, 'more ticks');
    const events = await confirmedEvents(store);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({ timestamp: '2025-06-16T00:00:00.000Z' });
  });

  test('a failing confirmDue is reported and tried again at the next tick; the service serves meanwhile', async () => {
    const store = createMemoryStore();
    await paid(store);
    let failures = 2;
    const flaky = storeTaking(
      (take) => (q) => {
        if (failures > 0) {
          failures--;
          return Promise.reject(new Error('connection refused'));
        }
        return take(q);
      },
      store,
    );
    const errors: string[] = [];
    const s = await start({
      store: flaky,
      confirmDue: { intervalMs: 20, onError: (e) => errors.push((e as Error).message) },
    });
    await waitFor(() => errors.length === 2, 'two failures');
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    // The third tick succeeds: the payments are confirmed, and no failure is reported again.
    await vi.waitFor(async () => expect(await confirmedEvents(store)).toHaveLength(1));
    await sleep(60);
    expect(errors).toEqual(['connection refused', 'connection refused']);
  });

  test('without onError, a failure is one line on stderr; a throwing callback ends nothing', async () => {
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
      if (String(chunk).startsWith('confirmDue')) {
        lines.push(String(chunk));
        return true;
      }
      return write(chunk as string, ...(rest as []));
    });
    const store = createMemoryStore();
    await paid(store);
    const failing = storeTaking(() => () => Promise.reject(new Error('the database is down')));
    await start({ store: failing, confirmDue: { intervalMs: 20 } });
    await waitFor(() => lines.length >= 2, 'two lines');
    expect(lines[0]).toBe('confirmDue failed: the database is down; trying again in 20 ms\n');
    await service?.stop();
    service = undefined;

    const thrown: string[] = [];
    await start({
      store,
      confirmDue: {
        intervalMs: 20,
        onConfirmed: () => {
          throw new Error('the callback broke');
        },
        onError: (e) => thrown.push((e as Error).message),
      },
    });
    await waitFor(() => thrown.length === 1, 'the callback error to be reported');
    expect(thrown).toEqual(['the callback broke']);
  });

  test('stop() clears the timer at once: no call starts after it, none is left running', async () => {
    let calls = 0;
    const counted = storeTaking((take) => (q) => {
      calls++;
      return take(q);
    });
    const s = await start({ store: counted, confirmDue: { intervalMs: 5 } });
    service = undefined;
    await waitFor(() => calls >= 3, 'a few ticks');
    await s.stop();
    const after = calls;
    await sleep(100);
    expect(calls).toBe(after);
  });

  test('stop() lets a confirmDue in flight finish before the store closes', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => {
      release = done;
    });
    const store = createMemoryStore();
    await paid(store);
    const holding = storeTaking(
      (take) => async (q) => {
        await held;
        const r = await take(q);
        events.push(r === undefined ? 'none taken' : 'taken');
        return r;
      },
      { ...store, close: async () => void events.push('store closed') },
    );
    const s = await start({
      store: holding,
      engine: { clock: () => new Date('2025-06-20T00:00:00Z') },
    });
    service = undefined;
    const stopped = s.stop().then(() => events.push('stopped'));
    await sleep(50);
    expect(events).toEqual([]);
    release();
    await stopped;
    // The call confirmed the two payments in one unit, found none left, then the store closed.
    expect(events).toEqual(['taken', 'none taken', 'store closed', 'stopped']);
    expect(await confirmedEvents(store)).toHaveLength(1);
  });

  test('intervalMs false: the service never confirms', async () => {
    let calls = 0;
    const counted = storeTaking((take) => (q) => {
      calls++;
      return take(q);
    });
    await start({ store: counted, confirmDue: { intervalMs: false } });
    await sleep(50);
    expect(calls).toBe(0);
  });

  test('a bad confirmDue option is a TypeError naming it, before anything starts', async () => {
    const store = createMemoryStore();
    const base = {
      store,
      partners: [{ application_id: A }],
      tokenSecret: TOKEN_SECRET,
      server: { port: 0, host: '127.0.0.1' },
    };
    const cases: [unknown, RegExp][] = [
      [{ interval: 5 }, /confirmDue options.*interval/],
      [{ intervalMs: 0 }, /intervalMs must be a whole number of milliseconds from 1 .* got 0/],
      [{ intervalMs: 1.5 }, /intervalMs must be/],
      [{ intervalMs: 2 ** 31 }, /intervalMs must be/],
      [{ intervalMs: '60000' }, /intervalMs must be/],
      [{ intervalMs: true }, /intervalMs must be/],
      [{ onError: 'log' }, /confirmDue\.onError must be a function/],
      [{ onConfirmed: 1 }, /confirmDue\.onConfirmed must be a function/],
      [null, /confirmDue must be an object/],
      [60_000, /confirmDue must be an object/],
    ];
    for (const [confirmDue, message] of cases) {
      await expect(startService({ ...base, confirmDue } as never)).rejects.toThrow(message);
      await expect(startService({ ...base, confirmDue } as never)).rejects.toThrow(TypeError);
    }
    expect(await store.outbox.list(A, { limit: 10 })).toEqual([]);
  });
});
