/**
 * The example payloads of docs/webhooks.md are the bodies the code sends:
 * scripts/webhook-payloads.mjs has the built engine pay one transaction on the memory store (fixed
 * clock and ids), take part of it back with a return, confirm it once its payment day has begun
 * and claw part of it back for a late return; a webhook dispatcher sends the `offer.updated`,
 * `cashback.created`, `cashback.adjusted`, `cashback.confirmed` and `cashback.clawed_back` events
 * to a receiver on 127.0.0.1, and each marked block of the page must be the body received, as the
 * script writes it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import type { OutboxEventType } from '../../src/store/entry.js';
import { requireCurrentDist } from '../package/_distCurrent.js';

/** Every type of outbox event: a type added to the store's list fails to compile here. */
const EVERY_TYPE: Readonly<Record<OutboxEventType, true>> = {
  'cashback.created': true,
  'cashback.adjusted': true,
  'cashback.confirmed': true,
  'cashback.clawed_back': true,
  'offer.updated': true,
};

const root = fileURLToPath(new URL('../..', import.meta.url));
const FIX =
  'docs/webhooks.md shows payloads the code does not send: `npm run build && node scripts/webhook-payloads.mjs` writes them';

/** What scripts/webhook-payloads.mjs exports. */
interface PayloadScript {
  readonly PAGE: string;
  webhookPayloads(): Promise<Record<string, unknown>>;
  shownPayloads(markdown: string): Record<string, unknown>;
  withPayloads(markdown: string, payloads: Record<string, unknown>): string;
}
let script: PayloadScript;

beforeAll(async () => {
  requireCurrentDist('This test sends webhook events with the built package.');
  script = (await import(
    pathToFileURL(join(root, 'scripts', 'webhook-payloads.mjs')).href
  )) as PayloadScript;
});

test('docs/webhooks.md shows the body of every event type the dispatcher sends', async () => {
  const sent = await script.webhookPayloads();
  expect(Object.keys(sent).sort()).toEqual(Object.keys(EVERY_TYPE).sort());
  // The payment records carry the revision that decided them and their status.
  const records = (type: string) =>
    (sent[type] as { data: { records: Record<string, unknown>[] } }).data.records;
  expect(records('cashback.created')[0]).toMatchObject({ offer_revision: 1, status: 'pending' });
  expect(records('cashback.confirmed')[0]).toMatchObject({ status: 'confirmed' });
  expect(records('cashback.clawed_back')[0]).toMatchObject({ offer_revision: 1 });
  const page = readFileSync(script.PAGE, 'utf8');
  // Every marker is followed by a block the script can write: none is skipped.
  expect(page.match(/<!-- webhook-payload:/g)).toHaveLength(Object.keys(EVERY_TYPE).length);
  expect(script.shownPayloads(page), FIX).toEqual(sent);
  expect(script.withPayloads(page, sent), FIX).toBe(page);
});
