import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import { generateWebhookSecret, startWebhookDispatcher } from '../../src/webhooks/index.js';
import { type Receiver, startReceiver } from './_receiver.js';

const SECRET = generateWebhookSecret();
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('startWebhookDispatcher, as cashback serve calls it', () => {
  test('resolves to undefined when no partner has a webhook', async () => {
    const store = createMemoryStore();
    expect(await startWebhookDispatcher({ store, partners: [{ application_id: 'bank-a' }] })).toBe(
      undefined,
    );
  });

  test('refuses at start a host that resolves to a loopback address, naming the partner', async () => {
    const store = createMemoryStore();
    await expect(
      startWebhookDispatcher({
        store,
        partners: [
          {
            application_id: 'bank-a',
            webhook_url: 'https://localhost/hooks',
            webhook_secret: SECRET,
          },
        ],
      }),
    ).rejects.toThrow(/partner 'bank-a': webhook host localhost resolves to/);
  });

  test('delivers in the background and logs one line per attempt until stopped', async () => {
    receiver = await startReceiver((n) => ({ status: n === 1 ? 503 : 200 }));
    const store = createMemoryStore();
    const lines: string[] = [];
    const dispatcher = await startWebhookDispatcher({
      store,
      partners: [{ application_id: 'bank-a', webhook_url: receiver.url, webhook_secret: SECRET }],
      allowLocalUrls: true,
      log: (line) => lines.push(line),
    });
    await store.outbox.add('bank-a', [
      {
        id: 'e1',
        type: 'offer.updated',
        payload: { n: 1 },
        created_at: '2025-06-01T12:00:00.000Z',
      },
    ]);
    while (lines.length === 0) await new Promise((r) => setTimeout(r, 10));
    await dispatcher?.stop();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^webhook e1 partner=bank-a type=offer.updated attempt=1 status=503 outcome=retry duration_ms=\d+ next_attempt_at=\S+ error="HTTP 503"$/,
    );
  });
});
