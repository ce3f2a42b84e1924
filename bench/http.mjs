// Benchmark of the partner HTTP API over the memory store (run `npm run build` first).
//   npm run bench:http              full sizes (about a minute and a half)
//   npm run bench:http -- --smoke   small sizes (CI)
// This process runs the server (createHttpApp + serveHttp on 127.0.0.1, no logger); a forked
// child (bench/http-load-child.mjs) drives it with autocannon over keep-alive connections, each
// request body a distinct batch of 1,000 transactions built before any load. Every round runs,
// on a fresh engine each:
//   - `engine.addTransactions` alone, the same batches awaited in turn (the baseline);
//   - POST /transactions with several connections (throughput: the server need not wait for
//     the client between requests);
//   - POST /transactions with one connection (latency: no request waits behind another);
//   - then, on the server of the first HTTP pass, GET /cashback-payments (page_size 100) for a
//     few seconds, and `engine.listPayments` alone on the same queries.
// The baseline runs in this process, the server's: the same V8, flags and JIT-compiled engine
// code, a heap in the same state (the previous pass's engine freed), and, as the server has
// during a load, one core for itself (the child idles meanwhile). In a process of its own it
// would measure a cold engine or need its own warm-up, and differ from the server's process in
// more than the HTTP layer. As in bench/engine.mjs, the baseline is handed the generator's
// objects; the HTTP figure includes reading and parsing the JSON bodies, and writing the answers.
// Wall-clock figures never fail the run; the exit code is 1 only when something is functionally
// wrong: an answer other than 200, a request lost, or HTTP paying other than the engine alone
// (count and sum of cashback) for the same transactions.
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateCustomers, generateOffers, generateTransactions } from './data.mjs';
import { buildInfo, count, engine, log, ratio, ratioOf, SEED, throughput } from './util.mjs';

const httpFile = join(dirname(process.env.BENCH_DIST), 'http.js');
const { createHttpApp, hashApplicationKey, serveHttp } = await import(
  pathToFileURL(httpFile).href
).catch((err) => {
  console.error(`bench: cannot load ${httpFile} (run \`npm run build\` first): ${err.message}`);
  process.exit(2);
});
const { createEngine, createMemoryPartners } = engine;

const smoke = process.argv.includes('--smoke');
const size = smoke
  ? {
      customers: 5_000,
      transactions: 20_000,
      offers: 1_000,
      batch: 1_000,
      warmBatches: 5,
      repeats: 1,
      connections: 4,
      getSeconds: 1,
    }
  : {
      customers: 100_000,
      transactions: 400_000,
      offers: 1_000,
      batch: 1_000,
      warmBatches: 50,
      repeats: 3,
      connections: 4,
      getSeconds: 3,
    };
const PARTNER = 'bank';
const KEY = 'bench-application-key';
const SECRET = 'bench-token-secret-of-at-least-32-bytes';
/** The payments listed under load: the whole year of transactions and their warranties. */
const LISTING = { dateFrom: '2025-01-01', dateTo: '2026-12-31', pageSize: 100 };
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const failures = [];
const fail = (message) => {
  failures.push(message);
  console.error(`FAILED: ${message}`);
};

const build = buildInfo();
log(
  `cashback-engine HTTP bench (${smoke ? 'smoke' : 'full'}): node ${process.version}, ` +
    `${cpus().length} × ${cpus()[0]?.model}, load average ${load()}, seed ${SEED}`,
);
log(`build: dist sha256 ${build.sha256}, HEAD ${build.commit} (plus any uncommitted changes)`);

// The load child builds its request bodies while this process builds its batches.
const child = fork(
  fileURLToPath(new URL('./http-load-child.mjs', import.meta.url)),
  [size.customers, size.transactions, size.offers, SEED, size.batch].map(String),
  { execArgv: [] },
);
let pending;
child.on('message', (m) => {
  const p = pending;
  pending = undefined;
  if (m.error !== undefined) p?.reject(new Error(`load child: ${m.error}`));
  else p?.resolve(m);
});
child.on('exit', (code) => {
  pending?.reject(new Error(`load child exited with ${code}`));
  pending = undefined;
});
/** The child's next message (an answer to `message`, when given). */
function ask(message) {
  return new Promise((resolve, reject) => {
    pending = { resolve, reject };
    if (message !== undefined) child.send(message);
  });
}
const ready = ask();

const customersRaw = generateCustomers(size.customers, SEED);
const offersRaw = generateOffers(size.offers, SEED);
const batches = [];
{
  let batch = [];
  for (const tx of generateTransactions({
    count: size.transactions,
    customers: size.customers,
    offers: size.offers,
    seed: SEED,
  })) {
    batch.push(tx);
    if (batch.length === size.batch) {
      batches.push(batch);
      batch = [];
    }
  }
  if (batch.length > 0) batches.push(batch);
}
const partners = createMemoryPartners([
  { application_id: PARTNER, application_key_hash: await hashApplicationKey(KEY) },
]);
const bodies = await ready;
if (bodies.bodies !== batches.length) throw new Error('load child: batches differ');
log(
  `${count(size.customers)} customers, ${count(size.offers)} offers, ${count(size.transactions)} ` +
    `transactions in ${count(batches.length)} batches of ${count(size.batch)}`,
);

/** A fresh engine over a memory store, offers and customers registered (not timed). */
async function freshEngine() {
  let n = 0;
  const e = createEngine({ ids: () => `event-${++n}`, clock: () => new Date(0) });
  await e.upsertOffers(offersRaw);
  await e.upsertCustomers(PARTNER, customersRaw);
  return e;
}

/** Every payment stored: how many, and the sum of cashback in cents. */
async function paidTotals(e) {
  let paid = 0;
  let cents = 0;
  for (let page = 1; ; page++) {
    const p = await e.listPayments(PARTNER, {
      date_from: '2000-01-01',
      date_to: '2099-12-31',
      current_page: page,
      page_size: 1000,
    });
    for (const t of p.transactions) cents += Math.round(t.cashback_amount * 100);
    paid += p.transactions.length;
    if (p.transactions.length < 1000) return { paid, cents };
  }
}

/** `engine.addTransactions` on the first `n` batches, awaited in turn. */
async function enginePass(n) {
  const e = await freshEngine();
  globalThis.gc?.();
  const start = performance.now();
  for (let i = 0; i < n; i++) await e.addTransactions(PARTNER, batches[i]);
  const seconds = (performance.now() - start) / 1000;
  return { seconds, totals: await paidTotals(e) };
}

/** Checks that every one of `expected` requests was answered 200. */
function checkAnswers(what, r, expected) {
  const others = Object.entries(r.statusCodes).filter(([code]) => code !== '200');
  if (r.errors > 0 || r.timeouts > 0 || others.length > 0 || r.ok !== expected) {
    fail(
      `${what}: ${r.ok} of ${expected} answered 200, status counts ${JSON.stringify(r.statusCodes)}, ` +
        `${r.errors} errors (${r.timeouts} timeouts)`,
    );
  }
}

async function token(url) {
  const res = await fetch(`${url}/get-token`, {
    headers: { applicationId: PARTNER, applicationKey: KEY },
  });
  if (res.status !== 200) throw new Error(`GET /get-token answered ${res.status}`);
  return (await res.json()).Token;
}

/**
 * POST /transactions of the first `n` batches over `connections` connections, on a fresh engine;
 * with `listing`, then GET /cashback-payments under load and `engine.listPayments` alone.
 */
async function httpPass(n, connections, listing) {
  const e = await freshEngine();
  const server = await serveHttp(createHttpApp({ engine: e, partners, tokenSecret: SECRET }), {
    port: 0,
    host: '127.0.0.1',
  });
  try {
    const Token = await token(server.url);
    globalThis.gc?.();
    const elu = performance.eventLoopUtilization();
    const post = await ask({
      kind: 'post',
      url: server.url,
      token: Token,
      connections,
      batches: n,
    });
    // The share of the load window (first request to last answer) this process's event loop
    // was busy: under 1, the server waited for requests. Outside the window it only waits.
    post.serverBusy = performance.eventLoopUtilization(elu).active / 1000 / post.seconds;
    checkAnswers(`POST /transactions (${connections} connection(s))`, post, n);
    if (post.sent !== n) fail(`POST /transactions: ${post.sent} bodies sent, ${n} expected`);
    const totals = await paidTotals(e);
    if (!listing) return { post, totals };
    const query = {
      date_from: LISTING.dateFrom,
      date_to: LISTING.dateTo,
      page_size: LISTING.pageSize,
    };
    const { total_count } = await e.listPayments(PARTNER, query);
    const pages = Math.max(1, Math.ceil(total_count / LISTING.pageSize));
    globalThis.gc?.();
    const get = await ask({
      kind: 'get',
      url: server.url,
      token: Token,
      connections,
      seconds: size.getSeconds,
      pages,
      ...LISTING,
    });
    checkAnswers('GET /cashback-payments', get, get.completed);
    // The same queries on the engine alone, for as many calls as HTTP answered.
    globalThis.gc?.();
    const start = performance.now();
    for (let i = 0; i < get.ok; i++) {
      await e.listPayments(PARTNER, { ...query, current_page: (i % pages) + 1 });
    }
    const direct = get.ok / ((performance.now() - start) / 1000);
    return { post, totals, get, listed: total_count, pages, direct };
  } finally {
    await server.close();
  }
}

const same = (a, b) => a.paid === b.paid && a.cents === b.cents;
const ms = (x) => `${x.toFixed(1)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const runs = { engine: [], many: [], one: [] };
const rounds = [];
let totals;
for (let round = 0; round <= size.repeats; round++) {
  // Round 0 warms up both processes on a few batches and is not counted.
  const n = round === 0 ? Math.min(size.warmBatches, batches.length) : batches.length;
  const e = await enginePass(n);
  const many = await httpPass(n, size.connections, round > 0);
  const one = await httpPass(n, 1, false);
  for (const [what, h] of [
    [`${size.connections} connections`, many],
    ['1 connection', one],
  ]) {
    if (!same(h.totals, e.totals)) {
      fail(
        `HTTP (${what}) paid ${h.totals.paid} payments, ${h.totals.cents} cents; the engine alone ` +
          `${e.totals.paid}, ${e.totals.cents} cents`,
      );
    }
  }
  if (round === 0) continue;
  totals = e.totals;
  runs.engine.push(e.seconds);
  runs.many.push(many.post.seconds);
  runs.one.push(one.post.seconds);
  rounds.push({ many, one });
  log(
    `  round ${round}: engine ${e.seconds.toFixed(2)} s, HTTP ${size.connections} connections ` +
      `${many.post.seconds.toFixed(2)} s, 1 connection ${one.post.seconds.toFixed(2)} s ` +
      `(p50 ${ms(one.post.latency.p50)}, p99 ${ms(one.post.latency.p99)}), ` +
      `GET /cashback-payments ${count(many.get.requestsPerSecond)} req/s`,
  );
}
child.send({ kind: 'exit' });

const items = batches.reduce((s, b) => s + b.length, 0);
const alone = throughput(items, runs.engine);
const many = throughput(items, runs.many);
const one = throughput(items, runs.one);
const toEngine = ratioOf(many, alone);
const oneToEngine = ratioOf(one, alone);
/** The median over the rounds of `f(round)`. */
const med = (f) => median(rounds.map(f));
const range = (f) => {
  const xs = rounds.map(f);
  return `${ms(Math.min(...xs))}–${ms(Math.max(...xs))}`;
};
const c = size.connections;
const first = rounds[0].many;
const KiB = (bytes) => `${count(bytes / 1024)} KiB`;
const row = (label, value) => `  ${label.padEnd(56)}${value}`;
log(`
Results (medians of ${size.repeats} rounds; ratios are medians of per-round ratios; targets are reported, never enforced)
${[
  row('engine.addTransactions alone (memory store, in turn)', `${count(alone.tps)} tx/s`),
  row(`POST /transactions, ${c} connections`, `${count(many.tps)} tx/s`),
  row(
    'HTTP ÷ engine alone',
    `${ratio(toEngine)}   target ≥ 0.5: ${toEngine >= 0.5 ? 'met' : 'MISSED'}`,
  ),
  row(
    'POST /transactions, 1 connection',
    `${count(one.tps)} tx/s (÷ engine alone: ${ratio(oneToEngine)})`,
  ),
  row(
    'latency of a 1,000-item batch, 1 connection',
    `p50 ${ms(med((r) => r.one.post.latency.p50))}, p99 ${ms(med((r) => r.one.post.latency.p99))}` +
      (rounds.length > 1 ? ` (p99 of the rounds: ${range((r) => r.one.post.latency.p99)})` : ''),
  ),
  row(
    `latency with ${c} connections (queueing included)`,
    `p50 ${ms(med((r) => r.many.post.latency.p50))}, p99 ${ms(med((r) => r.many.post.latency.p99))}`,
  ),
  row(
    `GET /cashback-payments, page_size 100, ${c} connections`,
    `${count(med((r) => r.many.get.requestsPerSecond))} req/s, ` +
      `p50 ${ms(med((r) => r.many.get.latency.p50))}, p99 ${ms(med((r) => r.many.get.latency.p99))}`,
  ),
  row('engine.listPayments alone, the same queries', `${count(med((r) => r.many.direct))} calls/s`),
  row(
    'server event loop busy during POST load',
    `${med((r) => r.many.post.serverBusy).toFixed(2)} (${c} connections), ` +
      `${med((r) => r.one.post.serverBusy).toFixed(2)} (1 connection)`,
  ),
  row(
    'load process CPU time over the POST load',
    `${med((r) => r.many.post.busy).toFixed(2)} (${c} connections), ` +
      `${med((r) => r.one.post.busy).toFixed(2)} (1 connection)`,
  ),
].join('\n')}
  Request bodies ${KiB(bodies.bytes / batches.length)}, answers ${KiB(first.post.answerBytes)} per batch; ${count(totals.paid)} payments of ${count(items)} transactions; the listing spans ${count(first.listed)} of them (${count(first.pages)} pages).
HTTP figures are timed by the load process from its first request to its last answer; latencies
are autocannon's per-response times. The throughput pass keeps ${c} requests in flight so that the
server never waits for the client; the latency pass sends one at a time, so no request waits
behind another. Load average ${load()} at end, on ${cpus().length} cores: the load process shares
them with the server, and a busy machine makes figures noisy.`);
if (smoke)
  log('Smoke sizes are too small for the figures to mean much; CI runs them for the checks.');
process.exitCode = failures.length > 0 ? 1 : 0;
