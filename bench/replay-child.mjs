// One measurement of figure 3, in its own process: `floor` reads the NDJSON file and JSON.parses
// each line; `replay` does the same and pushes chunks of 1,000 into a streaming replay, dropping
// the outcomes. Both read the file the same way, so the ratio is about the engine's work.
// Usage: node replay-child.mjs <floor|replay> <file> <customers> <offers> <seed>; reports via IPC.
import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { generateCustomers, generateOffers } from './data.mjs';

const CHUNK = 1_000;
const MiB = 1024 * 1024;

/** Calls `sink` with arrays of up to `size` parsed lines (a manual splitter over 1 MiB reads). */
async function readChunks(file, size, sink) {
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: MiB });
  let rest = '';
  let chunk = [];
  let lines = 0;
  for await (const piece of stream) {
    const text = rest + piece;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      if (nl > start) chunk.push(JSON.parse(text.slice(start, nl)));
      start = nl + 1;
      if (chunk.length === size) {
        lines += chunk.length;
        sink(chunk);
        chunk = [];
      }
    }
    rest = text.slice(start);
  }
  if (rest.trim() !== '') chunk.push(JSON.parse(rest));
  if (chunk.length > 0) {
    lines += chunk.length;
    sink(chunk);
  }
  return lines;
}

const [mode, file, customerCount, offerCount, seed] = process.argv.slice(2);
let sink = () => {};
let session;
if (mode === 'replay') {
  const { engine } = await import('./util.mjs');
  const { createReplay } = engine;
  const customers = generateCustomers(Number(customerCount), Number(seed));
  session = createReplay({ offers: generateOffers(Number(offerCount), Number(seed)), customers });
  sink = (chunk) => {
    session.push(chunk);
  };
} else if (mode !== 'floor') {
  throw new Error(`unknown mode '${mode}'`);
}

globalThis.gc?.();
const start = performance.now();
const lines = await readChunks(file, CHUNK, sink);
const seconds = (performance.now() - start) / 1000;
const summary = session?.summary();
const maxRssMiB = process.resourceUsage().maxRSS / 1024;
globalThis.gc?.();
process.send(
  {
    mode,
    lines,
    seconds,
    maxRssMiB,
    // What the run keeps (customers, offers, ids, purchases) once garbage is collected.
    retainedHeapMiB: process.memoryUsage().heapUsed / MiB,
    // What the session holds, in items (purchases are dropped once no lookback can read them).
    retained: session?.retained?.(),
    summary:
      summary === undefined
        ? undefined
        : { paid: summary.paid, totalCashback: summary.totalCashback, errors: summary.errors },
  },
  () => process.disconnect(),
);
