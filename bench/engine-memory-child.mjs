// Figure 5, in its own process: stores every transaction through the engine's memory store and
// reports the peak RSS and heap bytes per stored transaction to the parent via IPC.
// Usage: node --expose-gc engine-memory-child.mjs <customers> <transactions> <offers> <seed>
import { generateCustomers, generateOffers, generateTransactions } from './data.mjs';
import { engine } from './util.mjs';

const { createEngine } = engine;
const [customerCount, transactionCount, offerCount, seed] = process.argv.slice(2).map(Number);
const BATCH = 1_000;

let peakRss = 0;
const sample = () => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
};
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};

let n = 0;
const e = createEngine({ ids: () => `event-${++n}`, clock: () => new Date(0) });
await e.upsertOffers(generateOffers(offerCount, seed));
await e.upsertCustomers('bank', generateCustomers(customerCount, seed));
const heapBefore = heap();
sample();
let batch = [];
let stored = 0;
let paid = 0;
const flush = async () => {
  const r = await e.addTransactions('bank', batch);
  paid += r.payments.length;
  stored += batch.length - Object.keys(r.errors).length + r.payments.length;
  batch = [];
  sample();
};
for (const tx of generateTransactions({
  count: transactionCount,
  customers: customerCount,
  offers: offerCount,
  seed,
})) {
  batch.push(tx);
  if (batch.length === BATCH) await flush();
}
if (batch.length > 0) await flush();
const heapAfter = heap();
sample();
// Errors of stored transactions (no_offer, zero_cashback) count as stored too: read the store.
const ids = await e.store.transactions.existing(
  'bank',
  Array.from({ length: transactionCount }, (_, i) => `t${String(i).padStart(7, '0')}`),
);
stored = ids.length;
process.send({
  peakRss,
  heapBefore,
  heapAfter,
  stored,
  paid,
  bytesPerTransaction: Math.round((heapAfter - heapBefore) / stored),
});
