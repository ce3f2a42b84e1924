/**
 * The `cashback.adjusted` event of `POST /returns` (docs/webhooks.md) reaches a real receiver on
 * 127.0.0.1 as `cashback.created` does: signed, its `webhook-id` the `event_id` the request
 * answered, after the `cashback.created` of the payment it adjusts; a request that adjusts
 * nothing sends nothing.
 */
import { afterEach, expect, test } from 'vitest';
import {
  createWebhookDispatcher,
  generateWebhookSecret,
  verifyWebhook,
} from '../../src/webhooks/index.js';
import { customer, offer, tx } from '../fixtures.js';
import { type Harness, startHarness } from '../http/_harness.js';
import { type Receiver, startReceiver } from './_receiver.js';

const SECRET = generateWebhookSecret();
const A = 'bank-a';
let receiver: Receiver | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await receiver?.close();
  await h?.close();
  receiver = undefined;
  h = undefined;
});

test('POST /returns: its cashback.adjusted event is delivered with its event_id, signed, after the payment', async () => {
  receiver = await startReceiver();
  h = await startHarness({ engineClock: () => new Date('2025-06-03T12:00:00.000Z') });
  await h.engine.upsertOffers([offer()]);
  await h.post(A, '/customers/', [customer()]);
  const paid = await h.post(A, '/transactions', [tx({ amount: 100 })]);
  const late = await h.post(A, '/returns', [
    { return_id: 'r0', transaction_id: 't1', date: '2025-06-20T10:00:00', amount: 1 },
  ]);
  expect(late.body[0].adjustments).toEqual([]);
  const returned = await h.post(A, '/returns', [
    { return_id: 'r1', transaction_id: 't1', date: '2025-06-05T10:00:00', amount: 39 },
  ]);
  const event_id: string = returned.body[0].event_id;
  expect(returned.body[0].adjustments).toHaveLength(1);

  const dispatcher = createWebhookDispatcher({
    store: h.store,
    partners: [{ application_id: A, webhook_url: receiver.url, webhook_secret: SECRET }],
    allowLocalUrls: true,
  });
  expect(await dispatcher.runOnce()).toBe(2);
  expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([
    paid.body[0].event_id,
    event_id,
  ]);
  const last = receiver.received[1];
  const body = verifyWebhook(SECRET, last?.body ?? '', last?.headers ?? {});
  expect(body).toEqual({
    type: 'cashback.adjusted',
    event_id,
    timestamp: '2025-06-03T12:00:00.000Z',
    data: {
      records: [
        {
          transaction_id: 't1',
          country: 'FR',
          city: 'Paris',
          date: '2025-06-16T00:00:00.000',
          cashback_amount: 3,
          offer_id: 1,
          customer_id: 'c1',
          offer_revision: 1,
          status: 'pending',
          previous_cashback_amount: 5,
        },
      ],
    },
  });
  expect(await dispatcher.runOnce()).toBe(0);
});
