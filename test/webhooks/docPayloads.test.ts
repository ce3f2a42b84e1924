/**
 * The example payloads of docs/webhooks.md are the bodies the code sends:
 * scripts/webhook-payloads.mjs has the built engine pay one transaction on the memory store (fixed
 * clock and ids) and take part of it back with a return, a webhook dispatcher sends the
 * `offer.updated`, `cashback.created` and `cashback.adjusted` events to a receiver on 127.0.0.1, and each marked block of the page must be the body received, as the
 * script writes it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { requireCurrentDist } from '../package/_distCurrent.js';

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

test('docs/webhooks.md shows the cashback.created, cashback.adjusted and offer.updated bodies the dispatcher sends', async () => {
  const sent = await script.webhookPayloads();
  expect(Object.keys(sent).sort()).toEqual([
    'cashback.adjusted',
    'cashback.created',
    'offer.updated',
  ]);
  const page = readFileSync(script.PAGE, 'utf8');
  expect(script.shownPayloads(page), FIX).toEqual(sent);
  expect(script.withPayloads(page, sent), FIX).toBe(page);
});
