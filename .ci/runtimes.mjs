// Imports the built package (dist/) and replays the sample data, in whatever runtime runs it:
// .ci/run runs it under Node, Deno and Bun to show the core runs on all three. Exits non-zero
// when a figure differs from what docs/replay.md states.
import { readFileSync } from 'node:fs';
import { replayFiles } from '../dist/files.js';
import { replay } from '../dist/index.js';

const runtime =
  typeof globalThis.Deno !== 'undefined'
    ? `Deno ${globalThis.Deno.version.deno}`
    : typeof globalThis.Bun !== 'undefined'
      ? `Bun ${globalThis.Bun.version}`
      : `Node ${process.version}`;
const path = (name) => `docs/examples/${name}.json`;
const load = (name) => JSON.parse(readFileSync(path(name), 'utf8'));
const r = replay({
  offers: load('offers'),
  customers: load('customers'),
  history: load('history'),
  transactions: load('transactions'),
});
const files = await (
  await replayFiles({
    offers: path('offers'),
    customers: path('customers'),
    history: path('history'),
    transactions: path('transactions'),
  })
).collect();
const got = `${r.summary.paid} paid, ${r.summary.totalCashback}`;
if (got !== '9 paid, 38.52' || JSON.stringify(files.payments) !== JSON.stringify(r.payments)) {
  console.error(`${runtime}: replay gave ${got}; replayFiles ${files.payments.length} payments`);
  process.exit(1);
}
console.log(`${runtime}: replay and replayFiles of the sample data: ${got}`);
