// Writes the example payloads of docs/webhooks.md (each ```json block after a
// `<!-- webhook-payload: <type> -->` line) from the built package: an engine on the memory store,
// with a fixed clock and fixed ids, writes the events to its outbox, and a webhook dispatcher sends
// them to a receiver on 127.0.0.1; each block is the body received, indented. Run
// `npm run build && node scripts/webhook-payloads.mjs`; test/webhooks/docPayloads.test.ts fails
// while a block differs from what the dispatcher sends.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createEngine, createMemoryPartners, createMemoryStore } from '../dist/engine.js';
import { createWebhookDispatcher, generateWebhookSecret } from '../dist/webhooks.js';

/** The page, and the line before each block it holds. */
export const PAGE = fileURLToPath(new URL('../docs/webhooks.md', import.meta.url));
const MARKER =
  /^( *)<!-- webhook-payload: ([a-z._]+) -->\n\1```json\n(?:(?! *```)[^\n]*\n)*\1```$/gm;

/**
 * The body of each event type as the dispatcher sends it, for one paying transaction, a return of
 * part of it before its payment day, its confirmation once that day has begun, and a late return
 * that is clawed back.
 * @returns {Promise<Record<string, unknown>>} the parsed body by event type
 */
export async function webhookPayloads() {
  const bodies = [];
  const receiver = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    bodies.push(body);
    res.writeHead(204).end();
  });
  await new Promise((listening) => receiver.listen(0, '127.0.0.1', listening));
  try {
    const url = `http://127.0.0.1:${receiver.address().port}/hooks`;
    const partners = [
      { application_id: 'bank-a', webhook_url: url, webhook_secret: generateWebhookSecret() },
    ];
    const store = createMemoryStore();
    let n = 0;
    let now = new Date('2025-06-02T12:00:00.000Z');
    const engine = createEngine({
      store,
      partners: createMemoryPartners(partners),
      clock: () => now,
      ids: () => `6f1c7e2a-3b4d-4c5e-8f60-${String(++n).padStart(12, '0')}`,
    });
    await engine.upsertOffers([
      {
        offer_id: 1,
        name: 'Coffee 5%',
        merchant_name: 'Coffee House',
        merchant_logo: 'https://example.com/coffee.png',
        warranty: 14,
        age: ['18-35'],
        gender: [],
        category_name: 'Food',
        discount: 5,
        valid_from: '2025-01-01',
        valid_to: '2025-12-31',
      },
    ]);
    await engine.upsertCustomers('bank-a', [
      {
        customer_id: 'c1',
        birthday: '1995-05-15',
        gender: 'F',
        location: { country: 'FR', city: 'Paris' },
      },
    ]);
    await engine.addTransactions('bank-a', [
      {
        transaction_id: 't1',
        description: 'coffee',
        customer_id: 'c1',
        date: '2025-06-02T09:15:00.000',
        amount: 12.34,
        merchant: { id: 'm1', name: 'Coffee House', category_code: '5812' },
        location: { country: 'FR', city: 'Paris' },
      },
    ]);
    await engine.addReturns('bank-a', [
      { return_id: 'r1', transaction_id: 't1', date: '2025-06-05T18:00:00.000', amount: 4.34 },
    ]);
    // Its payment day has begun: the payment is final.
    now = new Date('2025-06-16T00:05:00.000Z');
    await engine.confirmDue();
    // A return dated before the payment day that arrives after it is clawed back.
    now = new Date('2025-06-20T09:30:00.000Z');
    await engine.addReturns('bank-a', [
      { return_id: 'r2', transaction_id: 't1', date: '2025-06-10T11:00:00.000', amount: 3 },
    ]);
    const dispatcher = createWebhookDispatcher({
      store,
      partners,
      allowLocalUrls: true,
      concurrency: 1,
    });
    await dispatcher.runOnce();
  } finally {
    await new Promise((closed) => receiver.close(closed));
  }
  return Object.fromEntries(bodies.map((body) => [JSON.parse(body).type, JSON.parse(body)]));
}

/**
 * The payloads a page shows, parsed.
 * @param {string} markdown - the page
 * @returns {Record<string, unknown>} the payload of each marked block, by event type
 */
export function shownPayloads(markdown) {
  return Object.fromEntries(
    [...markdown.matchAll(MARKER)].map(([block, indent, type]) => {
      const lines = block.split('\n').slice(2, -1);
      return [type, JSON.parse(lines.map((l) => l.slice(indent.length)).join('\n'))];
    }),
  );
}

/**
 * The page with every marked block made the payload of its event type.
 * @param {string} markdown - the page
 * @param {Record<string, unknown>} payloads - from webhookPayloads()
 * @returns {string} the page, its blocks written
 */
export function withPayloads(markdown, payloads) {
  return markdown.replace(MARKER, (_block, indent, type) => {
    if (!(type in payloads)) throw new Error(`docs/webhooks.md: no ${type} event was sent`);
    const json = JSON.stringify(payloads[type], null, 2).replace(/^/gm, indent);
    return `${indent}<!-- webhook-payload: ${type} -->\n${indent}\`\`\`json\n${json}\n${indent}\`\`\``;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const page = readFileSync(PAGE, 'utf8');
  writeFileSync(PAGE, withPayloads(page, await webhookPayloads()));
  console.log('docs/webhooks.md: webhook payloads written');
}
