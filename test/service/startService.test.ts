/**
 * The service's lifecycle as a library call (docs/http.md, "The service's lifecycle"): a real
 * server on 127.0.0.1 and a real webhook receiver; reload replaces partners (their keys and
 * tokens with them) and upserts offers; stop lets requests, engine calls and webhook attempts in
 * flight finish, then closes the store.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import {
  hashApplicationKey,
  type Service,
  type ServiceOptions,
  type ServicePartner,
  startService,
} from '../../src/http/index.js';
import { OfferValidationError } from '../../src/index.js';
import { type Store, StoreUnavailableError } from '../../src/store/entry.js';
import { generateWebhookSecret } from '../../src/webhooks/index.js';
import { customer, offer, tx } from '../fixtures.js';
import { TOKEN_SECRET } from '../http/_harness.js';
import { type Receiver, startReceiver } from '../webhooks/_receiver.js';

const keyOf = (id: string) => `${id}-key-0123456789abcdef`;
const hashes = new Map<string, string>();
/** A partner with its key's hash (one hash per key, as a kept partners file gives). */
async function partner(id: string, extra: Partial<ServicePartner> = {}): Promise<ServicePartner> {
  const key = extra.application_key_hash === undefined ? keyOf(id) : '';
  let hash = hashes.get(key);
  if (hash === undefined && key !== '') {
    hash = await hashApplicationKey(key);
    hashes.set(key, hash);
  }
  return { application_id: id, application_key_hash: hash, ...extra };
}

let service: Service | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await service?.stop();
  await receiver?.close();
  service = undefined;
  receiver = undefined;
});

async function start(over: Partial<ServiceOptions> = {}): Promise<Service> {
  service = await startService({
    store: createMemoryStore(),
    partners: [await partner('bank-a'), await partner('bank-b')],
    tokenSecret: TOKEN_SECRET,
    server: { port: 0, host: '127.0.0.1' },
    engine: { timeZone: 'UTC' },
    ...over,
  });
  return service;
}

/** `GET /get-token` with a key; the status and the token if any. */
async function tokenFor(s: Service, id: string, key = keyOf(id)) {
  const r = await fetch(`${s.url}/get-token`, {
    headers: { applicationId: id, applicationKey: key },
  });
  const body = (await r.json()) as { Token?: string };
  return { status: r.status, token: body.Token ?? '' };
}

/** The status of `GET /cashback-payments` with a token. */
async function paymentsStatus(s: Service, token: string) {
  const q = 'date_from=2025-01-01&date_to=2025-12-31';
  const r = await fetch(`${s.url}/cashback-payments?${q}`, { headers: { Token: token } });
  await r.arrayBuffer();
  return r.status;
}

describe('startService reload', () => {
  test("a removed partner's key and tokens are refused at once, a new partner's key works, a kept partner's tokens work", async () => {
    const s = await start();
    const a = await tokenFor(s, 'bank-a');
    const b = await tokenFor(s, 'bank-b');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await tokenFor(s, 'bank-c')).status).toBe(401);

    const reloaded = await s.reload({
      partners: [await partner('bank-b'), await partner('bank-c')],
    });
    expect(reloaded).toEqual({ partners: ['bank-b', 'bank-c'] });
    expect((await tokenFor(s, 'bank-a')).status).toBe(401);
    expect(await paymentsStatus(s, a.token)).toBe(401);
    expect(await paymentsStatus(s, b.token)).toBe(200);
    const c = await tokenFor(s, 'bank-c');
    expect(c.status).toBe(200);
    expect(await paymentsStatus(s, c.token)).toBe(200);
  });

  test('a changed key revokes the tokens of the old key; the new key gets tokens', async () => {
    const s = await start();
    const before = await tokenFor(s, 'bank-b');
    const rotated = await hashApplicationKey('bank-b-rotated-key-0123456789');
    await s.reload({
      partners: [
        await partner('bank-a'),
        await partner('bank-b', { application_key_hash: rotated }),
      ],
    });
    expect(await paymentsStatus(s, before.token)).toBe(401);
    expect((await tokenFor(s, 'bank-b')).status).toBe(401);
    const after = await tokenFor(s, 'bank-b', 'bank-b-rotated-key-0123456789');
    expect(after.status).toBe(200);
    expect(await paymentsStatus(s, after.token)).toBe(200);
  });

  test('upserts offers after the partners, whose webhooks then get offer.updated', async () => {
    receiver = await startReceiver();
    const s = await start({ webhooks: { allowLocalUrls: true, log: () => undefined } });
    const withHook = await partner('bank-a', {
      webhook_url: receiver.url,
      webhook_secret: generateWebhookSecret(),
    });
    const r = await s.reload({ partners: [withHook], offers: [offer({ offer_id: 7 })] });
    expect(r).toEqual({
      partners: ['bank-a'],
      offers: { created: [7], updated: [], unchanged: [] },
    });
    await waitFor(() => (receiver?.received.length ?? 0) >= 1, 'the offer.updated delivery');
    expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({
      type: 'offer.updated',
      data: { offer_id: 7 },
    });
  });

  test('a bad partner, webhook or offer, or an unknown key, is refused and changes nothing', async () => {
    const store = createMemoryStore();
    const s = await start({ store });
    const a = await tokenFor(s, 'bank-a');
    const next = [await partner('bank-c')];
    const refused: [unknown, RegExp | typeof OfferValidationError][] = [
      [{ partners: next, extra: 1 }, /unknown key 'extra'|extra/],
      [{ partners: [{ application_id: 'x'.repeat(129) }] }, /1 to 128 characters/],
      [{ partners: [{ application_id: 'bank-c', application_key: 'k' }] }, /application_key/],
      [
        {
          partners: [
            await partner('bank-c', {
              webhook_url: 'http://127.0.0.1:9/hooks',
              webhook_secret: generateWebhookSecret(),
            }),
          ],
        },
        /allowLocalUrls|https/,
      ],
      [{ partners: next, offers: [offer({ discount: 500 })] }, OfferValidationError],
    ];
    for (const [changes, error] of refused) {
      await expect(s.reload(changes as never)).rejects.toThrow(error as RegExp);
    }
    expect((await tokenFor(s, 'bank-c')).status).toBe(401);
    expect(await paymentsStatus(s, a.token)).toBe(200);
    expect(await store.offers.list()).toEqual([]);
  });
});

describe('startService options', () => {
  test('an unknown key, or a bad part, is a TypeError naming it, and nothing is left running', async () => {
    const store = createMemoryStore();
    const base = {
      store,
      partners: [await partner('bank-a')],
      tokenSecret: TOKEN_SECRET,
      server: { port: 0, host: '127.0.0.1' },
    };
    await expect(startService({ ...base, port: 0 } as never)).rejects.toThrow(
      /startService options.*port/,
    );
    await expect(
      startService({ ...base, server: { port: 0, hots: 'x' } } as never),
    ).rejects.toThrow(/hots/);
    await expect(startService({ ...base, app: { limit: {} } } as never)).rejects.toThrow(/limit/);
    await expect(startService({ ...base, offers: [{ offer_id: 1 }] })).rejects.toThrow(
      OfferValidationError,
    );
    await expect(startService({ ...base, closeStore: 'no' } as never)).rejects.toThrow(
      /closeStore/,
    );
  });

  test('a port in use is the listen error; the store is left open', async () => {
    const s = await start();
    const events: string[] = [];
    const taken = startService({
      store: recordedStore(events),
      partners: [await partner('bank-a')],
      tokenSecret: TOKEN_SECRET,
      server: { port: s.port, host: '127.0.0.1' },
    });
    await expect(taken).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(events).toEqual([]);
    expect(s.stop()).toBe(s.stop());
  });
});

/** Waits until `test()` holds, checking every 20 ms, for at most 20 s. */
async function waitFor(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (test()) return;
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A `POST /transactions` whose body is held back after its first half, until `finish()`. */
async function holdRequest(url: string, token: string, body: unknown) {
  const { hostname, port } = new URL(url);
  const bytes = Buffer.from(JSON.stringify(body));
  const socket: Socket = connect(Number(port), hostname);
  await new Promise<void>((done, fail) => socket.once('connect', done).once('error', fail));
  let received = '';
  socket.setEncoding('utf8').on('data', (d: string) => {
    received += d;
  });
  const ended = new Promise<void>((done) => socket.once('close', () => done()));
  socket.write(
    `POST /transactions HTTP/1.1\r\nHost: ${hostname}\r\nToken: ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`,
  );
  const half = Math.floor(bytes.length / 2);
  socket.write(bytes.subarray(0, half));
  return {
    async finish() {
      socket.write(bytes.subarray(half));
      await ended;
      const [head = '', rest = ''] = received.split('\r\n\r\n', 2);
      return {
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        body: JSON.parse(rest.slice(rest.indexOf('['), rest.lastIndexOf(']') + 1)),
      };
    },
  };
}

/** Whether a new connection to the server is refused. */
function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const probe = connect(Number(port), hostname);
    probe.once('connect', () => {
      probe.destroy();
      done(false);
    });
    probe.once('error', () => done(true));
  });
}

/** A memory store whose close is recorded in `events`. */
function recordedStore(events: string[]): Store {
  const store = createMemoryStore();
  return { ...store, close: async () => void events.push('store closed') };
}

describe('startService stop', () => {
  test('lets a request in flight finish and be stored, refuses new connections, then closes the store', async () => {
    const events: string[] = [];
    const store = recordedStore(events);
    const s = await start({ store, offers: [offer()] });
    service = undefined;
    const { token } = await tokenFor(s, 'bank-a');
    await s.engine.upsertCustomers('bank-a', [customer()]);
    const held = await holdRequest(s.url, token, [tx({ transaction_id: 'held' })]);

    const stopped = s.stop().then(() => events.push('stopped'));
    expect(await refusesConnections(s.url)).toBe(true);
    expect(events).toEqual([]);
    const answer = await held.finish();
    expect(answer.status).toBe(200);
    expect(
      answer.body[0].payments.map((p: { transaction_id: string }) => p.transaction_id),
    ).toEqual(['held']);
    await stopped;
    expect(events).toEqual(['store closed', 'stopped']);
    await expect(s.engine.activeOffers()).rejects.toThrow(StoreUnavailableError);
    expect(await store.transactions.existing('bank-a', ['held'])).toEqual(['held']);
  });

  test('lets a webhook attempt in flight finish and be recorded before the store closes', async () => {
    const events: string[] = [];
    receiver = await startReceiver(() => ({ status: 200, delayMs: 400 }));
    const store = recordedStore(events);
    const s = await start({
      store,
      partners: [
        await partner('bank-a', {
          webhook_url: receiver.url,
          webhook_secret: generateWebhookSecret(),
        }),
      ],
      webhooks: { allowLocalUrls: true, log: (line) => events.push(line.split(' ')[0] ?? '') },
    });
    service = undefined;
    await s.reload({ offers: [offer()] });
    await waitFor(() => (receiver?.received.length ?? 0) === 1, 'the delivery to arrive');
    expect(events).toEqual([]);
    await s.stop();
    expect(events).toEqual(['webhook', 'store closed']);
    expect(receiver.received).toHaveLength(1);
    // Recorded as delivered: nothing is due any more.
    const far = Date.now() + 86_400_000;
    const due = await store.deliveries?.claim({
      partners: ['bank-a'],
      now: far,
      leaseUntil: far + 1000,
      lease: 'test',
      limit: 10,
    });
    expect(due).toEqual([]);
  });
});
