import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, test } from 'vitest';
import {
  createEngine,
  createMemoryPartners,
  createMemoryStore,
  type MemoryStore,
} from '../../src/engine/entry.js';
import {
  createWebhookDispatcher,
  generateWebhookSecret,
  verifyWebhook,
  type WebhookAttempt,
  type WebhookDispatcherOptions,
} from '../../src/webhooks/index.js';
import { customer, offer, tx } from '../fixtures.js';
import { type Answer, type Receiver, startReceiver } from './_receiver.js';

const SECRET = generateWebhookSecret();
const P = 'bank-a';
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** A fake-free clock the test moves by hand. */
function manualClock(start = Date.now()) {
  let now = start;
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms), now: () => now };
}

async function setup(answer?: Answer, extra: Partial<WebhookDispatcherOptions> = {}) {
  receiver = await startReceiver(answer);
  const store = createMemoryStore();
  const attempts: WebhookAttempt[] = [];
  const dispatcher = createWebhookDispatcher({
    store,
    partners: [{ application_id: P, webhook_url: receiver.url, webhook_secret: SECRET }],
    allowLocalUrls: true,
    random: () => 0.5,
    onAttempt: (a) => attempts.push(a),
    ...extra,
  });
  return { store, dispatcher, attempts, receiver };
}

function event(id: string) {
  return {
    id,
    type: 'cashback.created' as const,
    payload: {
      type: 'cashback.created',
      event_id: id,
      timestamp: '2025-06-01T12:00:00.000Z',
      data: { records: [] },
    },
    created_at: '2025-06-01T12:00:00.000Z',
  };
}

async function add(store: MemoryStore, ...ids: string[]) {
  await store.outbox.add(P, ids.map(event));
}

describe('a webhook dispatcher delivering to a receiver on 127.0.0.1', () => {
  test('signs every delivery so that standardwebhooks verifies it, and a wrong secret does not', async () => {
    const { store, dispatcher, receiver } = await setup();
    await add(store, 'e1', 'e2');
    expect(await dispatcher.runOnce()).toBe(2);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(['e1', 'e2']);
    for (const r of receiver.received) {
      const headers = r.headers as Record<string, string>;
      expect(new Webhook(SECRET).verify(r.body, headers)).toEqual(
        event(headers['webhook-id'] ?? '').payload,
      );
      expect(verifyWebhook(SECRET, r.body, r.headers)).toEqual(JSON.parse(r.body));
      expect(() => new Webhook(generateWebhookSecret()).verify(r.body, headers)).toThrow();
      expect(() => verifyWebhook(SECRET, `${r.body} `, r.headers)).toThrow();
    }
    expect(await dispatcher.runOnce()).toBe(0);
  });

  test('carries two signatures during a rotation, each verifying with its own secret', async () => {
    const next = generateWebhookSecret();
    receiver = await startReceiver();
    const store = createMemoryStore();
    const dispatcher = createWebhookDispatcher({
      store,
      partners: [{ application_id: P, webhook_url: receiver.url, webhook_secret: [next, SECRET] }],
      allowLocalUrls: true,
    });
    await add(store, 'e1');
    await dispatcher.runOnce();
    const [r] = receiver.received;
    expect(String(r?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(SECRET, r?.body ?? '', r?.headers ?? {})).toBeTruthy();
    expect(verifyWebhook(next, r?.body ?? '', r?.headers ?? {})).toBeTruthy();
  });

  test('delivers the cashback.created event of addTransactions with its event_id and records', async () => {
    receiver = await startReceiver();
    const partners = [{ application_id: P, webhook_url: receiver.url, webhook_secret: SECRET }];
    const store = createMemoryStore();
    const engine = createEngine({
      store,
      partners: createMemoryPartners(partners),
      clock: () => new Date('2025-06-01T12:00:00.000Z'),
    });
    await engine.upsertOffers([offer()]);
    await engine.upsertCustomers(P, [customer()]);
    const offerEvents = receiver.received.length;
    const dispatcher = createWebhookDispatcher({ store, partners, allowLocalUrls: true });
    await dispatcher.runOnce();
    const updated = receiver.received.slice(offerEvents).map((r) => JSON.parse(r.body));
    expect(updated).toEqual([
      {
        type: 'offer.updated',
        timestamp: '2025-06-01T12:00:00.000Z',
        data: expect.objectContaining({ active: true }),
      },
    ]);
    const result = await engine.addTransactions(P, [tx()]);
    const { event_id, payments } = result;
    expect(payments.length).toBeGreaterThan(0);
    await dispatcher.runOnce();
    const last = receiver.received.at(-1);
    expect(last?.headers['webhook-id']).toBe(event_id);
    const body = JSON.parse(last?.body ?? '');
    expect(body).toEqual({
      type: 'cashback.created',
      event_id,
      timestamp: '2025-06-01T12:00:00.000Z',
      data: { records: expect.any(Array) },
    });
    expect(body.data.records).toHaveLength(payments.length);
    expect(body).toEqual((await store.outbox.list(P, { limit: 100 })).at(-1)?.payload);
  });

  test('retries after a 500 with the same webhook-id, and the retry is delivered', async () => {
    const t = manualClock();
    const { store, dispatcher, receiver, attempts } = await setup(
      (n) => ({ status: n === 1 ? 500 : 200 }),
      { clock: t.clock, schedule: [0, 5_000] },
    );
    await add(store, 'e1');
    await dispatcher.runOnce();
    expect(attempts.map((a) => [a.status, a.outcome])).toEqual([[500, 'retry']]);
    expect(attempts[0]?.next_attempt_at).toBe(new Date(t.now() + 5_000).toISOString());
    t.advance(4_999);
    expect(await dispatcher.runOnce()).toBe(0);
    t.advance(1);
    await dispatcher.runOnce();
    expect(attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, 500, 'retry'],
      [2, 200, 'delivered'],
    ]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(['e1', 'e1']);
  });

  test('retries when the receiver is down, and delivers once it is up', async () => {
    const t = manualClock();
    const { store, dispatcher, receiver, attempts } = await setup(undefined, {
      clock: t.clock,
      schedule: [0, 5_000],
    });
    const port = Number(new URL(receiver.url).port);
    await receiver.close();
    await add(store, 'e1');
    await dispatcher.runOnce();
    expect(attempts[0]).toMatchObject({ status: null, outcome: 'retry' });
    expect(attempts[0]?.error).toMatch(/request failed/);
    const up = await startReceiver(undefined, port);
    try {
      t.advance(5_000);
      await dispatcher.runOnce();
      expect(attempts[1]).toMatchObject({ status: 200, outcome: 'delivered' });
      expect(up.received).toHaveLength(1);
    } finally {
      await up.close();
    }
  });

  test('counts a receiver slower than timeoutMs as a failure', async () => {
    const { store, dispatcher, attempts } = await setup(
      (n) => ({ status: 200, delayMs: n === 1 ? 2_000 : 0 }),
      { timeoutMs: 200, schedule: [0, 0] },
    );
    await add(store, 'e1');
    await dispatcher.runOnce();
    expect(attempts.map((a) => [a.status, a.outcome])).toEqual([
      [null, 'retry'],
      [200, 'delivered'],
    ]);
    expect(attempts[0]?.error).toBe('no answer within 200 ms');
  });

  test('does not follow a 301: it is a failed attempt', async () => {
    const target = await startReceiver();
    try {
      const { store, dispatcher, attempts } = await setup(
        () => ({ status: 301, headers: { location: target.url } }),
        { schedule: [0] },
      );
      await add(store, 'e1');
      await dispatcher.runOnce();
      expect(attempts[0]).toMatchObject({ status: 301, outcome: 'dead' });
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  test('waits as long as a 429 Retry-After says when that is longer than the schedule', async () => {
    const t = manualClock();
    const { store, dispatcher, attempts } = await setup(
      (n) => (n === 1 ? { status: 429, headers: { 'retry-after': '120' } } : { status: 200 }),
      { clock: t.clock, schedule: [0, 1_000] },
    );
    await add(store, 'e1');
    await dispatcher.runOnce();
    expect(attempts[0]?.next_attempt_at).toBe(new Date(t.now() + 120_000).toISOString());
    t.advance(60_000);
    expect(await dispatcher.runOnce()).toBe(0);
    t.advance(60_000);
    await dispatcher.runOnce();
    expect(attempts[1]).toMatchObject({ status: 200, outcome: 'delivered' });
  });

  test('a 410 disables the endpoint, and the event waits until the webhook settings change', async () => {
    const { store, dispatcher, attempts, receiver } = await setup((n) => ({
      status: n === 1 ? 410 : 200,
    }));
    await add(store, 'e1', 'e2');
    await dispatcher.runOnce();
    expect(attempts.filter((a) => a.outcome === 'disabled').length).toBeGreaterThan(0);
    expect(dispatcher.disabled()).toEqual([P]);
    expect(await dispatcher.runOnce()).toBe(0);
    const moved = `${receiver.url}?v=2`;
    dispatcher.setPartners([{ application_id: P, webhook_url: moved, webhook_secret: SECRET }]);
    expect(dispatcher.disabled()).toEqual([]);
    await dispatcher.runOnce();
    const delivered = attempts.filter((a) => a.outcome === 'delivered').map((a) => a.event_id);
    expect(delivered.sort()).toEqual(['e1', 'e2']);
  });

  test('an injected clock drives the default schedule to a dead letter, then redelivery succeeds', async () => {
    const t = manualClock();
    const { store, dispatcher, attempts } = await setup(() => ({ status: 500 }), {
      clock: t.clock,
    });
    await add(store, 'e1');
    for (let i = 0; i < 8; i++) {
      await dispatcher.runOnce();
      t.advance(11 * 3_600_000);
    }
    expect(attempts.map((a) => a.outcome)).toEqual([...Array(7).fill('retry'), 'dead']);
    const waits = attempts
      .slice(0, 7)
      .map((a, i) => Date.parse(a.next_attempt_at ?? '') - (t.now() - (8 - i) * 11 * 3_600_000));
    expect(waits).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    const [letter] = await store.deliveries.deadLetters({ limit: 10 });
    expect(letter).toMatchObject({ id: 'e1', partner: P, attempts: 8, error: 'HTTP 500' });
    receiver?.answer(() => ({ status: 204 }));
    expect(await store.deliveries.redeliver({ ids: ['e1'], now: t.now() })).toEqual(['e1']);
    await dispatcher.runOnce();
    expect(attempts.at(-1)).toMatchObject({
      event_id: 'e1',
      attempt: 1,
      status: 204,
      outcome: 'delivered',
    });
    expect(await store.deliveries.deadLetters({ limit: 10 })).toEqual([]);
  });

  test('start delivers in the background and stop waits for the attempt in flight', async () => {
    const { store, dispatcher, receiver, attempts } = await setup(
      () => ({ status: 200, delayMs: 100 }),
      {
        pollMs: 10,
      },
    );
    dispatcher.start();
    await add(store, 'e1');
    while (receiver.received.length === 0) await new Promise((r) => setTimeout(r, 5));
    await dispatcher.stop();
    expect(attempts.map((a) => a.outcome)).toEqual(['delivered']);
  });
});

describe('createWebhookDispatcher options', () => {
  const store = createMemoryStore();
  const ok = {
    application_id: P,
    webhook_url: 'https://bank.example/hooks',
    webhook_secret: SECRET,
  };
  test('rejects an unknown key', () => {
    expect(() => createWebhookDispatcher({ store, partners: [], retries: 3 } as never)).toThrow(
      /retries/,
    );
  });
  test('rejects http, loopback and private URLs unless allowLocalUrls', () => {
    for (const url of [
      'http://bank.example/hooks',
      'https://127.0.0.1/h',
      'https://10.1.2.3/h',
      'https://[::1]/h',
      'https://169.254.169.254/',
    ]) {
      expect(() =>
        createWebhookDispatcher({ store, partners: [{ ...ok, webhook_url: url }] }),
      ).toThrow(/bank-a/);
    }
    expect(() =>
      createWebhookDispatcher({
        store,
        partners: [{ ...ok, webhook_url: 'http://127.0.0.1/h' }],
        allowLocalUrls: true,
      }),
    ).not.toThrow();
  });
  test('rejects a secret that is not whsec_ of at least 24 bytes', () => {
    for (const webhook_secret of [
      'secret',
      `whsec_${Buffer.alloc(16).toString('base64')}`,
      [SECRET, SECRET, SECRET],
    ]) {
      expect(() =>
        createWebhookDispatcher({ store, partners: [{ ...ok, webhook_secret }] }),
      ).toThrow(/webhook_secret/);
    }
  });
  test('refuses at send time, as it connects, a host that resolves to a loopback address', async () => {
    const attempts: WebhookAttempt[] = [];
    const s = createMemoryStore();
    const d = createWebhookDispatcher({
      store: s,
      partners: [{ ...ok, webhook_url: 'https://localhost/hooks' }],
      schedule: [0],
      onAttempt: (a) => attempts.push(a),
    });
    await s.outbox.add(P, [event('e1')]);
    await d.runOnce();
    expect(attempts[0]).toMatchObject({ outcome: 'dead', status: null });
    // The default client's own connection refused it: the check is on the answer it connects to.
    expect(attempts[0]?.error).toMatch(
      /^request failed: webhook host localhost resolves to .*loopback/,
    );
  });
  test('checks the addresses before each attempt for a fetch of its own, which never sees a refused host', async () => {
    const attempts: WebhookAttempt[] = [];
    const asked: string[] = [];
    const s = createMemoryStore();
    const d = createWebhookDispatcher({
      store: s,
      partners: [{ ...ok, webhook_url: 'https://localhost/hooks' }],
      schedule: [0],
      fetch: (input, init) => {
        asked.push(String(input));
        return globalThis.fetch(input, init);
      },
      onAttempt: (a) => attempts.push(a),
    });
    await s.outbox.add(P, [event('e1')]);
    await d.runOnce();
    expect(attempts[0]).toMatchObject({ outcome: 'dead', status: null });
    expect(attempts[0]?.error).toMatch(/^webhook host localhost resolves to .*loopback/);
    expect(asked).toEqual([]);
  });
});
