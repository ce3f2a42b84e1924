// Benchmark of the PostgreSQL store (run `npm run build` first).
//   npm run bench:postgres              full sizes
//   npm run bench:postgres -- --smoke   small sizes, seconds (CI)
//   ... --throughput   the addTransactions rounds only (to compare with a build from before
//                      listPayments or confirmDue: BENCH_DIST=<its index.js>)
// `engine.addTransactions` in batches of 1,000 over the memory store, a PostgreSQL server (a
// throwaway cluster started with scripts/pg-cluster.sh, durable settings), PGlite in memory and
// PGlite in a data directory (what `cashback serve` uses by default),
// rounds interleaved, each a ratio of the memory store in the same round (median of per-round
// ratios). Then `listPayments` page latency with many stored payments, `confirmDue` over as many
// payments due on one day (its time and memory), and database bytes per
// stored transaction. The memory store and the server also run with a budget and a cap on every
// offer, ample enough never to run out (docs/benchmarks.md, "Funding controls"): each funded pass
// is a ratio of the same store without them in the same round. Wall-clock figures never fail the
// run; the exit code is 1 only when a store pays differently from the memory store.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { engineWorkload } from './data.mjs';
import { withFunding } from './funding.mjs';
import { count, engine, log, ratio, ratioOf, SEED, throughput } from './util.mjs';

const { createEngine } = engine;
const { createPostgresStore, createPgliteStore } = await import(
  join(dirname(process.env.BENCH_DIST), 'postgres.js')
);
const smoke = process.argv.includes('--smoke');
const throughputOnly = process.argv.includes('--throughput');
const size = smoke
  ? {
      customers: 5_000,
      transactions: 10_000,
      offers: 1_000,
      batch: 1_000,
      repeats: 1,
      payments: 20_000,
      pages: 50,
    }
  : {
      customers: 100_000,
      transactions: 200_000,
      offers: 1_000,
      batch: 1_000,
      repeats: 3,
      payments: 1_000_000,
      pages: 400,
    };
const TARGET = 0.25;

// A throwaway cluster, removed however the run ends.
const script = fileURLToPath(new URL('../scripts/pg-cluster.sh', import.meta.url));
const started = Object.fromEntries(
  execFileSync(script, ['start'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.split('=', 2)),
);
process.on('exit', () => execFileSync(script, ['stop', started.PG_CLUSTER_DIR]));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const adminUrl = started.DATABASE_URL;

log(`cashback-engine PostgreSQL store bench (${smoke ? 'smoke' : 'full'}), seed ${SEED}`);
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const serverVersion = (await admin.query('SHOW server_version')).rows[0].server_version;
log(`server: ${(await admin.query('SELECT version()')).rows[0].version.split(',')[0]}`);
log(
  `${count(size.customers)} customers, ${count(size.offers)} offers, ${count(size.transactions)} transactions in batches of ${count(size.batch)}`,
);

const { customers, offers, transactions: raw, batches } = engineWorkload(size, SEED);
const fundedOffers = withFunding(offers, 'ample');

let databases = 0;
/** A new, empty database on the server; its URL. */
async function freshDatabase() {
  const name = `bench_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/**
 * `engine.addTransactions` over `store`, batch after batch, with `offerSet` (the plain offers
 * unless given); only the batches are timed.
 */
async function pass(store, offerSet = offers) {
  let n = 0;
  const e = createEngine({ store, ids: () => `event-${++n}`, clock: () => new Date(0) });
  await e.upsertOffers(offerSet);
  await e.upsertCustomers('bank', customers);
  globalThis.gc?.();
  let paid = 0;
  const start = performance.now();
  for (const batch of batches) {
    const r = await e.addTransactions('bank', batch);
    paid += r.payments.length;
  }
  return { seconds: (performance.now() - start) / 1000, paid, engine: e };
}

const runs = {
  memory: [],
  server: [],
  pglite: [],
  pgliteDisk: [],
  memoryFunded: [],
  serverFunded: [],
};
let disagreement;
let lastServer;
/** A pass over a fresh database of the server. */
async function serverPass(offerSet) {
  const db = await freshDatabase();
  const store = await createPostgresStore({ connectionString: db.url });
  const r = await pass(store, offerSet);
  await store.close();
  return { ...r, db };
}
/** Runs `a` then `b`, or `b` then `a` when `swap`; resolves with `[a's result, b's]`. */
async function inTurn(swap, a, b) {
  if (!swap) {
    const first = await a();
    return [first, await b()];
  }
  const second = await b();
  return [await a(), second];
}
for (let round = 0; round < size.repeats; round++) {
  // Without and with funding, in turn first, so that neither always runs first.
  const swap = round % 2 === 1;
  const [m, mf] = await inTurn(
    swap,
    () => pass(engine.createMemoryStore()),
    () => pass(engine.createMemoryStore(), fundedOffers),
  );
  const [s, sf] = await inTurn(
    swap,
    () => serverPass(offers),
    () => serverPass(fundedOffers),
  );
  const db = s.db;
  const pgliteStore = await createPgliteStore();
  const l = await pass(pgliteStore);
  await pgliteStore.close();
  const dataDir = mkdtempSync(join(tmpdir(), 'cashback-bench-pglite-'));
  let d;
  try {
    const diskStore = await createPgliteStore({ dataDir });
    d = await pass(diskStore);
    await diskStore.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  // Ample budgets and caps pay what no budget pays.
  for (const [name, r] of [
    ['server', s],
    ['PGlite', l],
    ['PGlite on disk', d],
    ['memory with funding', mf],
    ['server with funding', sf],
  ]) {
    if (r.paid !== m.paid) disagreement = `${name} paid ${r.paid}, memory ${m.paid}`;
  }
  runs.memory.push(m.seconds);
  runs.server.push(s.seconds);
  runs.pglite.push(l.seconds);
  runs.pgliteDisk.push(d.seconds);
  runs.memoryFunded.push(mf.seconds);
  runs.serverFunded.push(sf.seconds);
  lastServer = db;
  log(
    `  round ${round + 1}: memory ${m.seconds.toFixed(2)} s, server ${s.seconds.toFixed(2)} s, PGlite ${l.seconds.toFixed(2)} s, PGlite on disk ${d.seconds.toFixed(2)} s (${count(m.paid)} paid); with funding: memory ${mf.seconds.toFixed(2)} s, server ${sf.seconds.toFixed(2)} s`,
  );
}
const fig = {
  memory: throughput(raw.length, runs.memory),
  server: throughput(raw.length, runs.server),
  pglite: throughput(raw.length, runs.pglite),
  pgliteDisk: throughput(raw.length, runs.pgliteDisk),
  memoryFunded: throughput(raw.length, runs.memoryFunded),
  serverFunded: throughput(raw.length, runs.serverFunded),
};
const FUNDING_TARGET = 0.9;
const fundedServer = ratioOf(fig.serverFunded, fig.server);
const fundedMemory = ratioOf(fig.memoryFunded, fig.memory);
const toServer = ratioOf(fig.server, fig.memory);
const toPglite = ratioOf(fig.pglite, fig.memory);
const toPgliteDisk = ratioOf(fig.pgliteDisk, fig.memory);

// Bytes per stored transaction, in the last round's server database.
const sizes = new pg.Client({ connectionString: lastServer.url });
await sizes.connect();
await sizes.query('VACUUM ANALYZE');
const bytes = (
  await sizes.query(`SELECT
    (SELECT count(*) FROM cashback_transactions)::float8 AS stored,
    pg_total_relation_size('cashback_transactions')::float8 AS transactions,
    (pg_total_relation_size('cashback_transactions') + pg_total_relation_size('cashback_payments')
      + pg_total_relation_size('cashback_outbox'))::float8 AS written`)
).rows[0];
await sizes.end();

/** `listPayments` and `confirmDue` over many stored payments: the lines they print. */
async function ledgerFigures() {
  // listPayments page latency with many stored payments, written straight into the table.
  const listing = await freshDatabase();
  const listingStore = await createPostgresStore({ connectionString: listing.url });
  const client = new pg.Client({ connectionString: listing.url });
  await client.connect();
  await client.query(
    `INSERT INTO cashback_payments (partner, transaction_id, customer_id, offer_id, offer_revision,
     cashback_amount, payment_date, country, city, event_id, order_key)
   SELECT 'bank', id, 'c' || (i % 100000), 1 + i % 1000, 1, (i % 500) / 100.0,
     to_char(date '2025-01-01' + (i % 365), 'YYYY-MM-DD'), 'DE', 'Berlin', 'event-' || (i / 1000),
     decode(regexp_replace(encode(convert_to(id, 'UTF8'), 'hex'), '(..)', '00\\1', 'g'), 'hex')
   FROM (SELECT i, 't' || lpad(i::text, 9, '0') AS id FROM generate_series(1, $1) AS i) AS s`,
    [size.payments],
  );
  // What units of work keep beside the payments they store: the payments above 0 per day, which a
  // listing's total sums (docs/postgres.md, Listings). A build from before it has no such table.
  await client.query(
    `DO $$ BEGIN
       IF to_regclass('cashback_payment_days') IS NOT NULL THEN
         INSERT INTO cashback_payment_days (partner, payment_date, count)
         SELECT partner, payment_date, count(*) FROM cashback_payments
         WHERE cashback_amount > 0 GROUP BY partner, payment_date;
       END IF;
     END $$`,
  );
  await client.query('VACUUM ANALYZE');
  await client.end();
  const lister = createEngine({ store: listingStore });
  const quantiles = (ms) => {
    const sorted = [...ms].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return { text: `p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms`, p99: at(0.99) };
  };
  /** Latencies of `size.pages` listings of pages of 100, the page drawn by `pageOf`. */
  async function pages(from, to, pageOf) {
    const ms = [];
    for (let i = 0; i < size.pages; i++) {
      const start = performance.now();
      await lister.listPayments('bank', {
        date_from: from,
        date_to: to,
        page_size: 100,
        current_page: pageOf(i),
      });
      ms.push(performance.now() - start);
    }
    return quantiles(ms);
  }
  const perDay = Math.ceil(size.payments / 365);
  const dayPages = await pages(
    '2025-03-01',
    '2025-03-01',
    (i) => 1 + (i % Math.ceil(perDay / 100)),
  );
  const monthPages = await pages('2025-03-01', '2025-03-31', (i) => 1 + ((i * 7) % 10));
  const yearFirst = await pages('2025-01-01', '2025-12-31', (i) => 1 + (i % 10));
  await listingStore.close();

  // engine.confirmDue over `size.payments` payments due on one day, written straight into the
  // table: its time and how far the process's memory grew (it confirms 1,000 a unit of work).
  const confirming = await freshDatabase();
  const confirmStore = await createPostgresStore({ connectionString: confirming.url });
  const confirmClient = new pg.Client({ connectionString: confirming.url });
  await confirmClient.connect();
  await confirmClient.query(
    `INSERT INTO cashback_payments (partner, transaction_id, customer_id, offer_id, offer_revision,
     cashback_amount, payment_date, country, city, event_id, order_key)
   SELECT 'bank', id, 'c' || (i % 100000), 1 + i % 1000, 1, 0.01 + (i % 500) / 100.0,
     '2025-03-01', 'DE', 'Berlin', 'event-' || (i / 1000),
     decode(regexp_replace(encode(convert_to(id, 'UTF8'), 'hex'), '(..)', '00\\1', 'g'), 'hex')
   FROM (SELECT i, 't' || lpad(i::text, 9, '0') AS id FROM generate_series(1, $1) AS i) AS s`,
    [size.payments],
  );
  await confirmClient.query('VACUUM ANALYZE cashback_payments');
  let eventNo = 0;
  const confirmer = createEngine({
    store: confirmStore,
    clock: () => new Date('2025-03-02T00:00:00Z'),
    ids: () => `confirm-${++eventNo}`,
  });
  globalThis.gc?.();
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 20);
  const confirmStart = performance.now();
  const confirmed = await confirmer.confirmDue();
  const confirmSeconds = (performance.now() - confirmStart) / 1000;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  const confirmedRows = Number(
    (
      await confirmClient.query(
        // Confirmed: a late payment by its own row, another by an event of its day past it
        // (docs/postgres.md, Confirmation).
        `SELECT count(*) AS n FROM cashback_payments p WHERE p.confirmed_event IS NOT NULL
           OR EXISTS (SELECT 1 FROM cashback_confirmation_events e WHERE e.partner = p.partner
             AND e.payment_date = p.payment_date AND e.last_key >= p.order_key)`,
      )
    ).rows[0].n,
  );
  if (confirmed.payments !== size.payments || confirmedRows !== size.payments) {
    disagreement ??= `confirmDue confirmed ${confirmed.payments} payments (${confirmedRows} stored as confirmed) of ${size.payments}`;
  }
  await confirmClient.end();
  await confirmStore.close();
  const CONFIRM_TARGET_SECONDS = 10;
  const LIST_TARGET_MS = 20;
  return `listPayments, pages of 100, ${count(size.payments)} stored payments (${count(perDay)} a day), ${size.pages} requests each:
  one day                                  ${dayPages.text}
  one month, pages 1–10                    ${monthPages.text}
  one year (every payment), pages 1–10     ${yearFirst.text}${smoke ? '' : `   target p99 ≤ ${LIST_TARGET_MS} ms: ${yearFirst.p99 <= LIST_TARGET_MS ? 'met' : 'MISSED'}`}
engine.confirmDue, ${count(size.payments)} payments due on one day: ${confirmSeconds.toFixed(2)} s, ${count(confirmed.events)} events, ${count(confirmed.payments / confirmSeconds)} payments/s${smoke ? '' : `   target < ${CONFIRM_TARGET_SECONDS} s: ${confirmSeconds < CONFIRM_TARGET_SECONDS ? 'met' : 'MISSED'}`}
  the process's memory grew by ${((rssPeak - rssBefore) / 2 ** 20).toFixed(0)} MiB (resident set, sampled every 20 ms)`;
}
const ledgerLines = throughputOnly ? '' : `\n${await ledgerFigures()}`;
await admin.end();

log(`
Results (medians of ${size.repeats} rounds; ratios are medians of per-round ratios)
  engine.addTransactions, memory store     ${count(fig.memory.tps)} tx/s
  engine.addTransactions, ${`PostgreSQL ${serverVersion.split(' ')[0]}`.padEnd(16)} ${count(fig.server.tps)} tx/s
  engine.addTransactions, PGlite (memory)  ${count(fig.pglite.tps)} tx/s
  engine.addTransactions, PGlite (on disk) ${count(fig.pgliteDisk.tps)} tx/s
  server ÷ memory                          ${ratio(toServer)}   target ≥ ${TARGET}: ${toServer >= TARGET ? 'met' : 'MISSED'}
  PGlite ÷ memory                          ${ratio(toPglite)}
  PGlite on disk ÷ memory                  ${ratio(toPgliteDisk)}
  with a budget and a cap on every offer (ample, never running out):
  engine.addTransactions, memory store     ${count(fig.memoryFunded.tps)} tx/s
  engine.addTransactions, PostgreSQL       ${count(fig.serverFunded.tps)} tx/s
  server with funding ÷ without            ${ratio(fundedServer)}   target ≥ ${FUNDING_TARGET}: ${fundedServer >= FUNDING_TARGET ? 'met' : 'MISSED'}
  memory with funding ÷ without            ${ratio(fundedMemory)}
  database bytes per stored transaction    ${count(bytes.transactions / bytes.stored)} (transactions table with its indexes); ${count(bytes.written / bytes.stored)} with payments and outbox${ledgerLines}
The server runs with its durable defaults (fsync, synchronous commit) on 127.0.0.1.`);
if (disagreement !== undefined) {
  console.error(`DISAGREEMENT: ${disagreement}`);
  process.exitCode = 1;
}
