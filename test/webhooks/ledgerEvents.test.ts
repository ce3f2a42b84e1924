/**
 * The ledger's events (docs/webhooks.md) reach a real receiver on 127.0.0.1 as the others do:
 * `cashback.confirmed` (written by `confirmDue` once a payment day has begun) and
 * `cashback.clawed_back` (written by `POST /returns` when a late return is clawed back), each
 * signed, in outbox order after the `cashback.created` of their payment, and retried with the
 * same `webhook-id` after a failed attempt.
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

test('cashback.confirmed and cashback.clawed_back are delivered signed, in order, and retried with the same webhook-id', async () => {
  // The first delivery of the clawback fails; its retry succeeds.
  let clawedBackTries = 0;
  receiver = await startReceiver((_n, got) => ({
    status: got.body.includes('cashback.clawed_back') && clawedBackTries++ === 0 ? 503 : 200,
  }));
  let now = new Date('2025-06-03T12:00:00.000Z');
  h = await startHarness({ engineClock: () => now });
  await h.engine.upsertOffers([offer()]);
  await h.post(A, '/customers/', [customer()]);
  const paid = await h.post(A, '/transactions', [tx({ amount: 100 })]);

  // The payment day has begun: confirmDue confirms t1 (5), once.
  now = new Date('2025-06-16T00:05:00.000Z');
  expect(await h.engine.confirmDue()).toEqual({ events: 1, payments: 1 });
  expect(await h.engine.confirmDue()).toEqual({ events: 0, payments: 0 });
  // A return dated before the payment day arrives after it: clawed back, t1 stays at 5.
  now = new Date('2025-06-20T09:00:00.000Z');
  const late = await h.post(A, '/returns', [
    { return_id: 'r1', transaction_id: 't1', date: '2025-06-05T10:00:00', amount: 40 },
  ]);
  expect(late.body[0].clawbacks).toHaveLength(1);

  const dispatcher = createWebhookDispatcher({
    store: h.store,
    partners: [{ application_id: A, webhook_url: receiver.url, webhook_secret: SECRET }],
    allowLocalUrls: true,
    schedule: [0, 0],
    // One attempt at a time: the events arrive in outbox order.
    concurrency: 1,
  });
  expect(await dispatcher.runOnce()).toBe(4);
  const events = receiver.received.map((r) => verifyWebhook(SECRET, r.body, r.headers)) as {
    type: string;
    event_id: string;
  }[];
  const ids = receiver.received.map((r) => r.headers['webhook-id']);
  expect(events.map((e) => e.type)).toEqual([
    'cashback.created',
    'cashback.confirmed',
    'cashback.clawed_back',
    'cashback.clawed_back',
  ]);
  // Each delivery's webhook-id is its event_id; the retry keeps it.
  expect(ids).toEqual(events.map((e) => e.event_id));
  expect(ids[0]).toBe(paid.body[0].event_id);
  expect(ids[3]).toBe(ids[2]);
  expect(new Set(ids).size).toBe(3);

  expect(events[1]).toEqual({
    type: 'cashback.confirmed',
    event_id: ids[1],
    timestamp: '2025-06-16T00:05:00.000Z',
    data: {
      records: [
        {
          transaction_id: 't1',
          country: 'FR',
          city: 'Paris',
          date: '2025-06-16T00:00:00.000',
          cashback_amount: 5,
          offer_id: 1,
          customer_id: 'c1',
          offer_revision: 1,
          status: 'confirmed',
        },
      ],
    },
  });
  expect(events[3]).toEqual({
    type: 'cashback.clawed_back',
    event_id: ids[3],
    timestamp: '2025-06-20T09:00:00.000Z',
    data: { records: late.body[0].clawbacks },
  });
  expect(late.body[0].clawbacks).toEqual([
    {
      return_id: 'r1',
      transaction_id: 't1',
      customer_id: 'c1',
      offer_id: 1,
      offer_revision: 1,
      amount: 2,
      date: '2025-06-05T10:00:00.000',
      reported_at: '2025-06-20T09:00:00.000',
    },
  ]);
  expect(await dispatcher.runOnce()).toBe(0);
});
