// Two builds side by side in one process: `decide` alone (parsed batches, ids recorded as a replay
// records them), `createReplay().push` over chunks of JSON text (parsed inside the timing), and
// `engine.addTransactions` over a fresh memory store, each pass of one build
// followed by the same pass of the other, the order swapped every round. The figure is the median
// of the per-round ratios (this build ÷ the base): a shared, busy machine slows both sides of a
// round alike, which separate runs of `bench:engine` cannot promise.
//   BENCH_BASE=<path of the base build's index.js> node --expose-gc bench/engine-compare.mjs
//   ... --smoke   small sizes; --only=decide,replay,engine (any of them); --rounds=N
// The base is any earlier build (copy its dist/ somewhere inside the repository, so that it finds
// node_modules). Wall-clock figures never fail the run: the exit code is 1 only when the two
// builds pay differently.
import { performance } from 'node:perf_hooks';
import { engineWorkload } from './data.mjs';
import { count, engine, entriesOf, log, ratio, SEED } from './util.mjs';

const basePath = process.env.BENCH_BASE;
if (basePath === undefined) {
  console.error('bench: set BENCH_BASE to the index.js of the build to compare with');
  process.exit(2);
}
const builds = { base: await entriesOf(basePath), this: engine };
const smoke = process.argv.includes('--smoke');
/** `--only=decide,replay` runs only those passes (all three by default). */
const only = (process.argv.find((a) => a.startsWith('--only='))?.slice(7) ?? 'decide,replay,engine')
  .split(',')
  .filter(Boolean);
const size = smoke
  ? { customers: 5_000, transactions: 50_000, offers: 1_000, batch: 1_000, rounds: 2 }
  : { customers: 100_000, transactions: 400_000, offers: 1_000, batch: 1_000, rounds: 6 };
/** `--rounds=N` measures N rounds instead. */
const rounds = process.argv.find((a) => a.startsWith('--rounds='));
if (rounds !== undefined) size.rounds = Number(rounds.slice(9));

log(`cashback-engine: this build against ${basePath} (${smoke ? 'smoke' : 'full'}), seed ${SEED}`);
log(
  `${count(size.customers)} customers, ${count(size.offers)} offers, ${count(size.transactions)} transactions in batches of ${count(size.batch)}, ${size.rounds} rounds after a warm-up`,
);
const {
  customers: customersRaw,
  offers: offersRaw,
  transactions: raw,
  batches: rawBatches,
} = engineWorkload(size, SEED);

/** Per build: parsed customers and batches, compiled offers, and whether decide records ids. */
const prepared = Object.fromEntries(
  Object.entries(builds).map(([name, b]) => {
    const options = b.resolveOptions({});
    const customers = new Map();
    for (const [i, c] of customersRaw.entries()) {
      const r = b.parseCustomer(c, i);
      customers.set(r.value.customerId, r.value);
    }
    const batches = rawBatches.map((batch) =>
      batch.map((tx, j) => b.parseTransaction(tx, j, options.timeZone)),
    );
    return [name, { b, options, customers, batches, offers: b.compileOffers(offersRaw) }];
  }),
);

/**
 * A replay-like state. A build whose `decide` records accepted ids in `storedIds` itself (before
 * `decide` was made pure) gets them there; any other build has them recorded after each batch,
 * inside the timing, as `createReplay` does.
 */
function stateOf({ b, options, customers, offers }) {
  // A Set for every build: the same structures, whatever each build keeps inside createReplay.
  const ids = new Set();
  const purchases = new Map();
  const state = {
    offers,
    options,
    customer: (id) => customers.get(id),
    hasTransaction: (id) => ids.has(id),
    storedIds: ids,
    purchases: (c, k) => purchases.get(c)?.get(k),
  };
  const probe = b.parseTransaction(raw[0], 0, options.timeZone);
  const before = ids.size;
  b.decide([probe], state);
  const decideRecords = ids.size !== before;
  if (ids.size !== before) ids.clear();
  const record = decideRecords
    ? () => {}
    : (accepted) => {
        for (const tx of accepted) ids.add(tx.transactionId);
      };
  const keep = (accepted) => {
    for (const tx of accepted) {
      if (!offers.historyKeys.has(tx.merchantKey)) continue;
      let byMerchant = purchases.get(tx.customerId);
      if (byMerchant === undefined) {
        byMerchant = new Map();
        purchases.set(tx.customerId, byMerchant);
      }
      const list = byMerchant.get(tx.merchantKey) ?? [];
      list.push({
        seconds: tx.when.seconds,
        nanos: tx.when.nanos,
        day: tx.when.day,
        amount: tx.amount,
      });
      byMerchant.set(tx.merchantKey, list);
    }
  };
  return { state, record, keep };
}

function decidePass(p) {
  globalThis.gc?.();
  const { state, record, keep } = stateOf(p);
  let seconds = 0;
  let paid = 0;
  for (const batch of p.batches) {
    const start = performance.now();
    const d = p.b.decide(batch, state);
    record(d.accepted);
    seconds += (performance.now() - start) / 1000;
    keep(d.accepted);
    for (const o of d.outcomes) if (o.ok) paid++;
  }
  return { seconds, paid };
}

/** Chunks as JSON text, parsed inside the timing as a replay from a file parses its lines. */
const jsonBatches = rawBatches.map((batch) => JSON.stringify(batch));

/** `createReplay` over JSON chunks: customers as JSON too, so that ids come from `JSON.parse`. */
function replayPass({ b }) {
  globalThis.gc?.();
  const session = b.createReplay(
    { offers: offersRaw, customers: JSON.parse(JSON.stringify(customersRaw)) },
    { maxLatenessDays: Number.POSITIVE_INFINITY },
  );
  let paid = 0;
  const start = performance.now();
  for (const text of jsonBatches) {
    for (const o of session.push(JSON.parse(text))) if (o.ok) paid++;
  }
  return { seconds: (performance.now() - start) / 1000, paid };
}

async function enginePass({ b }) {
  globalThis.gc?.();
  let n = 0;
  const e = b.createEngine({ ids: () => `event-${++n}`, clock: () => new Date(0) });
  await e.upsertOffers(offersRaw);
  await e.upsertCustomers('bank', customersRaw);
  globalThis.gc?.();
  let paid = 0;
  const start = performance.now();
  for (const batch of rawBatches) paid += (await e.addTransactions('bank', batch)).payments.length;
  return { seconds: (performance.now() - start) / 1000, paid };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const seconds = {
  decide: { base: [], this: [] },
  replay: { base: [], this: [] },
  engine: { base: [], this: [] },
};
const paid = new Set();
for (let round = 0; round <= size.rounds; round++) {
  const order = round % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
  const line = [];
  for (const name of order) {
    const passes = {
      decide: () => decidePass(prepared[name]),
      replay: () => replayPass(prepared[name]),
      engine: () => enginePass(prepared[name]),
    };
    const figures = [];
    for (const what of only) {
      const r = await passes[what]();
      paid.add(`${what} ${r.paid}`);
      if (round === 0) continue;
      seconds[what][name].push(r.seconds);
      figures.push(`${what} ${r.seconds.toFixed(2)} s`);
    }
    if (round > 0) line.push(`${name}: ${figures.join(', ')}`);
  }
  if (round > 0) log(`  round ${round}: ${line.join('; ')}`);
}

const report = (what) => {
  const s = seconds[what];
  const tps = (xs) => count(size.transactions / median(xs));
  const ratios = s.this.map((t, i) => s.base[i] / t);
  return `  ${what.padEnd(7)} base ${tps(s.base)} tx/s, this ${tps(s.this)} tx/s, this ÷ base ${ratio(median(ratios))} (rounds: ${ratios.map((r) => r.toFixed(3)).join(' ')})`;
};
log(`
Results (medians; ratios are medians of per-round ratios, above 1 when this build is faster)
${only.map(report).join('\n')}`);
// Each kind of pass pays one count, whichever build runs it (decide and replay pay the same).
if (paid.size !== only.length) {
  console.error(`DISAGREEMENT: the builds paid ${[...paid].join(', ')} transactions`);
  process.exitCode = 1;
}
