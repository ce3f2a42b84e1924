// Benchmarks of the engine over the memory store (run `npm run build` first).
//   npm run bench:engine          full sizes (about two minutes)
//   npm run bench:engine -- --smoke   small sizes (CI)
// Figure 4: `engine.addTransactions` in batches of 1,000 against `decide` alone on the same
// transactions in the same run, rounds interleaved, each ratio the median of per-round ratios.
// Two floors show what any engine's figure is bounded by: parsing plus `decide` (the engine
// receives JSON), and that plus keeping every accepted transaction (the least a store does).
// Figure 5 (a child process, so that nothing else is in its heap): peak RSS after storing every
// transaction, and heap bytes per stored transaction. Then the returns case (bench/engine-returns.mjs):
// 5% of the transactions returned, on the memory store and a PostgreSQL server. Wall-clock figures
// never fail the run; the exit code is 1 only when the engine pays differently from `decide`, or
// the server decides returns differently from the memory store.
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { engineWorkload } from './data.mjs';
import { customerMap, mapState } from './decide.mjs';
import { returnsCase } from './engine-returns.mjs';
import { count, engine, log, ratio, ratioOf, SEED, throughput } from './util.mjs';

const { compileOffers, createEngine, decide, parseTransaction, resolveOptions } = engine;
const smoke = process.argv.includes('--smoke');
const size = smoke
  ? { customers: 5_000, transactions: 50_000, offers: 1_000, batch: 1_000, repeats: 1 }
  : { customers: 100_000, transactions: 1_000_000, offers: 1_000, batch: 1_000, repeats: 3 };
const options = resolveOptions({});
const MiB = 1024 * 1024;

log(`cashback-engine engine bench (${smoke ? 'smoke' : 'full'}), seed ${SEED}`);
log(
  `${count(size.customers)} customers, ${count(size.offers)} offers, ${count(size.transactions)} transactions in batches of ${count(size.batch)}`,
);
const workload = engineWorkload(size, SEED);
const customersRaw = workload.customers;
const customers = customerMap(customersRaw);
const offersRaw = workload.offers;
const offers = compileOffers(offersRaw);
const raw = workload.transactions;
const rawBatches = workload.batches;
const parsedBatches = rawBatches.map((b) =>
  b.map((tx, j) => parseTransaction(tx, j, options.timeZone)),
);

/** `decide` alone: parsed batches, a Map-backed state; only the decide calls are timed. */
function decidePass() {
  globalThis.gc?.();
  const { state, record, store } = mapState(offers, options, customers);
  let seconds = 0;
  let paid = 0;
  for (const batch of parsedBatches) {
    const start = performance.now();
    const d = decide(batch, state);
    record(d);
    seconds += (performance.now() - start) / 1000;
    store(d.accepted);
    for (const o of d.outcomes) if (o.ok) paid++;
  }
  return { seconds, paid };
}

/** Parsing and `decide`: what an in-memory replay does with JSON, timed together. */
function parseDecidePass() {
  globalThis.gc?.();
  const { state, record, store } = mapState(offers, options, customers);
  let seconds = 0;
  for (const batch of rawBatches) {
    const start = performance.now();
    const items = batch.map((tx, j) => parseTransaction(tx, j, options.timeZone));
    const d = decide(items, state);
    record(d);
    seconds += (performance.now() - start) / 1000;
    store(d.accepted);
  }
  return { seconds };
}

/**
 * The keeping floor: parsing and `decide`, plus holding on to every accepted transaction in one
 * array, the least any store does with what it accepts (no record, no index, no payment). Its
 * ratio to `decide` alone bounds the engine's.
 */
function keepFloorPass() {
  globalThis.gc?.();
  const { state, record, store } = mapState(offers, options, customers);
  const kept = [];
  let seconds = 0;
  for (const batch of rawBatches) {
    const start = performance.now();
    const items = batch.map((tx, j) => parseTransaction(tx, j, options.timeZone));
    const d = decide(items, state);
    record(d);
    for (const tx of d.accepted) kept.push(tx);
    seconds += (performance.now() - start) / 1000;
    store(d.accepted);
  }
  if (kept.length === 0) throw new Error('bench data: nothing accepted');
  return { seconds };
}

/** `engine.addTransactions` over a fresh memory store, batch after batch, awaited in turn. */
async function enginePass() {
  globalThis.gc?.();
  let n = 0;
  const e = createEngine({ ids: () => `event-${++n}`, clock: () => new Date(0) });
  await e.upsertOffers(offersRaw);
  await e.upsertCustomers('bank', customersRaw);
  globalThis.gc?.();
  let paid = 0;
  const start = performance.now();
  for (const batch of rawBatches) {
    const r = await e.addTransactions('bank', batch);
    paid += r.payments.length;
  }
  return { seconds: (performance.now() - start) / 1000, paid };
}

const runs = { decide: [], parseDecide: [], keep: [], engine: [] };
let disagreement;
for (let round = 0; round < size.repeats + 1; round++) {
  // Round 0 warms the code up and is not counted.
  const d = decidePass();
  const p = parseDecidePass();
  const k = keepFloorPass();
  const e = await enginePass();
  if (e.paid !== d.paid) disagreement = `engine paid ${e.paid}, decide ${d.paid}`;
  if (round === 0) continue;
  runs.decide.push(d.seconds);
  runs.parseDecide.push(p.seconds);
  runs.keep.push(k.seconds);
  runs.engine.push(e.seconds);
  log(
    `  round ${round}: decide ${d.seconds.toFixed(2)} s, parse + decide ${p.seconds.toFixed(2)} s, keeping floor ${k.seconds.toFixed(2)} s, engine ${e.seconds.toFixed(2)} s`,
  );
}
const fig4 = {
  decide: throughput(raw.length, runs.decide),
  parseDecide: throughput(raw.length, runs.parseDecide),
  keep: throughput(raw.length, runs.keep),
  engine: throughput(raw.length, runs.engine),
};

/** Figure 5 in a child: memory after storing every transaction. */
function memoryChild() {
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(new URL('./engine-memory-child.mjs', import.meta.url)),
      [String(size.customers), String(size.transactions), String(size.offers), String(SEED)],
      { execArgv: ['--expose-gc', '--max-old-space-size=8192'] },
    );
    child.on('message', resolve);
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`memory child exited with ${code}`));
    });
  });
}
const fig5 = await memoryChild();

const toEngine = ratioOf(fig4.engine, fig4.decide);
const toParse = ratioOf(fig4.engine, fig4.parseDecide);
const parseBound = ratioOf(fig4.parseDecide, fig4.decide);
const keepBound = ratioOf(fig4.keep, fig4.decide);
const toKeep = ratioOf(fig4.engine, fig4.keep);
log(`
Results (medians of ${size.repeats} rounds; ratios are medians of per-round ratios)
  decide alone (parsed, Map state)       ${count(fig4.decide.tps)} tx/s
  parse + decide                         ${count(fig4.parseDecide.tps)} tx/s
  keeping floor (parse + decide + keep)  ${count(fig4.keep.tps)} tx/s
  engine.addTransactions (memory store)  ${count(fig4.engine.tps)} tx/s
  engine ÷ decide alone                  ${ratio(toEngine)}   target ≥ 0.6: ${toEngine >= 0.6 ? 'met' : 'MISSED'}
    bound: parse + decide ÷ decide       ${ratio(parseBound)}   target ≥ 0.75: ${parseBound >= 0.75 ? 'met' : 'MISSED'}
    bound: keeping floor ÷ decide        ${ratio(keepBound)}
  engine ÷ parse + decide                ${ratio(toParse)}
  engine ÷ keeping floor                 ${ratio(toKeep)}
  peak RSS after storing ${count(fig5.stored)} transactions for ${count(size.customers)} customers: ${(fig5.peakRss / MiB).toFixed(0)} MiB
  heap after storing: ${(fig5.heapAfter / MiB).toFixed(0)} MiB (before the transactions: ${(fig5.heapBefore / MiB).toFixed(0)} MiB)
  bytes per stored transaction (heap growth ÷ transactions, payments included): ${count(fig5.bytesPerTransaction)}
  (${count(fig5.paid)} of them paid; ${count(fig5.stored)} stored)
The engine's figure includes parsing, the store's reads (customers, stored ids, purchases), the
unit of work that stores transactions, payments and the outbox event, and building the result.`);
const returnsDisagreement = await returnsCase(workload, {
  repeats: size.repeats,
  serverTransactions: smoke ? 10_000 : 200_000,
});
disagreement ??= returnsDisagreement;
if (disagreement !== undefined) {
  console.error(`DISAGREEMENT: ${disagreement}`);
  process.exitCode = 1;
}
