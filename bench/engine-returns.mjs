// The returns case of `npm run bench:engine` (docs/benchmarks.md, item 7): 5% of the
// transactions returned. On the memory store and on a PostgreSQL server (a throwaway cluster
// started with scripts/pg-cluster.sh, durable settings), rounds interleaved:
// - returns per second through `engine.addReturns`, in batches of the transactions' batch size;
// - `engine.addTransactions` with those returns stored beside it (the returns of stored batches
//   sent whenever a batch of them is ready) against the same transactions without returns, only
//   the `addTransactions` calls timed: the ratio of the two throughputs (target ≥ 0.9).
// The memory store and the server must decide every return alike.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { count, engine, log, ratio, ratioOf, throughput } from './util.mjs';

const { createEngine, createMemoryStore } = engine;
const TARGET = 0.9;
const DAY_MS = 86_400_000;

/** Every twentieth transaction is returned. */
const RETURNED_EVERY = 20;

/**
 * The return of the `k`-th returned transaction: 0 to 19 days after it (offers' warranties are 0
 * to 30 days, so some come before the payment day and adjust, the rest after it), of half the
 * amount for even `k`, of all of it otherwise.
 */
function returnOf(tx, k) {
  const at = new Date(Date.parse(`${tx.date}Z`) + (k % 20) * DAY_MS).toISOString().slice(0, 19);
  const r = { return_id: `r${tx.transaction_id}`, transaction_id: tx.transaction_id, date: at };
  if (k % 2 === 0) {
    const half = Math.floor(Math.round(tx.amount * 100) / 2); // in cents: amounts have 2 decimals
    r.amount = `${Math.floor(half / 100)}.${String(half % 100).padStart(2, '0')}`;
  }
  return r;
}

/** The returns of each batch of transactions: 5% of them, in the batch's order. */
function returnsOf(batches) {
  let k = 0;
  return batches.map((batch) =>
    batch.filter((_, j) => j % RETURNED_EVERY === 7).map((tx) => returnOf(tx, k++)),
  );
}

/**
 * One pass over `store`: the batches sent to `addTransactions`; with `returns`, each batch's
 * returns gathered and sent to `addReturns` whenever a full batch of them is ready (and at the
 * end). The two kinds of call are timed apart.
 */
async function pass(store, workload, batches, returns) {
  let n = 0;
  const e = createEngine({ store, ids: () => `event-${++n}`, clock: () => new Date(0) });
  await e.upsertOffers(workload.offers);
  await e.upsertCustomers('bank', workload.customers);
  globalThis.gc?.();
  const size = batches[0]?.length ?? 1;
  const out = { txSeconds: 0, returnSeconds: 0, returns: 0, adjusted: 0, refused: 0 };
  let pending = [];
  const flush = async () => {
    const start = performance.now();
    const r = await e.addReturns('bank', pending);
    out.returnSeconds += (performance.now() - start) / 1000;
    out.returns += pending.length;
    out.adjusted += r.adjustments.length;
    out.refused += r.details.errors.length;
    pending = [];
  };
  for (let i = 0; i < batches.length; i++) {
    const start = performance.now();
    await e.addTransactions('bank', batches[i]);
    out.txSeconds += (performance.now() - start) / 1000;
    if (returns === undefined) continue;
    pending.push(...returns[i]);
    if (pending.length >= size) await flush();
  }
  if (pending.length > 0) await flush();
  return out;
}

/** A throwaway cluster, stopped when the process exits; its admin client and a database maker. */
async function startServer() {
  const script = fileURLToPath(new URL('../scripts/pg-cluster.sh', import.meta.url));
  const started = Object.fromEntries(
    execFileSync(script, ['start'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.split('=', 2)),
  );
  process.on('exit', () => execFileSync(script, ['stop', started.PG_CLUSTER_DIR]));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  const admin = new pg.Client({ connectionString: started.DATABASE_URL });
  await admin.connect();
  const { createPostgresStore } = await import(
    join(dirname(process.env.BENCH_DIST), 'postgres.js')
  );
  let databases = 0;
  return {
    version: (await admin.query('SHOW server_version')).rows[0].server_version.split(' ')[0],
    /** A store over a new, empty database. */
    async store() {
      const name = `bench_returns_${++databases}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(started.DATABASE_URL);
      url.pathname = `/${name}`;
      return createPostgresStore({ connectionString: url.toString() });
    },
    close: () => admin.end(),
  };
}

/** What one store's rounds measured. */
function figures(runs, transactions, returns) {
  const without = throughput(transactions, runs.without);
  const beside = throughput(transactions, runs.beside);
  return {
    returns: throughput(returns, runs.returns),
    without,
    beside,
    ratio: ratioOf(beside, without),
  };
}

/**
 * Runs the returns case and prints its figures.
 * @param workload - `engineWorkload(...)` of bench/data.mjs
 * @param options - `repeats` rounds; `serverTransactions`, how many of the transactions the
 *   server passes send (a prefix of the workload, whole batches)
 * @returns a disagreement between the stores, or undefined
 */
export async function returnsCase(workload, { repeats, serverTransactions }) {
  const returns = returnsOf(workload.batches);
  const total = returns.reduce((n, r) => n + r.length, 0);
  const serverBatches = workload.batches.slice(
    0,
    Math.ceil(serverTransactions / (workload.batches[0]?.length ?? 1)),
  );
  const serverReturns = returns.slice(0, serverBatches.length);
  const serverTotal = serverReturns.reduce((n, r) => n + r.length, 0);
  const serverTx = serverBatches.reduce((n, b) => n + b.length, 0);
  log(
    `\nReturns: ${count(total)} of ${count(workload.transactions.length)} transactions returned (1 in ${RETURNED_EVERY}); the server sends the first ${count(serverTx)} and their ${count(serverTotal)} returns`,
  );
  const server = await startServer();
  const memory = { returns: [], without: [], beside: [] };
  const onServer = { returns: [], without: [], beside: [] };
  let disagreement;
  let decided;
  /** The passes of one store with and without returns, in the given order. */
  const both = async (makeStore, batches, batchReturns, besideFirst) => {
    const one = async (withReturns) => {
      const store = await makeStore();
      const r = await pass(store, workload, batches, withReturns ? batchReturns : undefined);
      await store.close?.();
      return r;
    };
    if (besideFirst) {
      const beside = await one(true);
      return [await one(false), beside];
    }
    const without = await one(false);
    return [without, await one(true)];
  };
  // Round 0 warms the code up and is not counted; the order of the passes alternates by round.
  for (let round = 0; round <= repeats; round++) {
    const besideFirst = round % 2 === 1;
    const [m0, m1] = await both(createMemoryStore, workload.batches, returns, besideFirst);
    const [s0, s1] = await both(() => server.store(), serverBatches, serverReturns, besideFirst);
    const m2 = await pass(createMemoryStore(), workload, serverBatches, serverReturns);
    if (m2.adjusted !== s1.adjusted || m2.refused !== s1.refused) {
      disagreement = `returns: the server adjusted ${s1.adjusted} and refused ${s1.refused}, the memory store ${m2.adjusted} and ${m2.refused}`;
    }
    decided = m1;
    if (round === 0) continue;
    memory.without.push(m0.txSeconds);
    memory.beside.push(m1.txSeconds);
    memory.returns.push(m1.returnSeconds);
    onServer.without.push(s0.txSeconds);
    onServer.beside.push(s1.txSeconds);
    onServer.returns.push(s1.returnSeconds);
    log(
      `  round ${round}: memory ${m0.txSeconds.toFixed(2)} s without returns, ${m1.txSeconds.toFixed(2)} s beside them, returns ${m1.returnSeconds.toFixed(2)} s; server ${s0.txSeconds.toFixed(2)} s, ${s1.txSeconds.toFixed(2)} s, returns ${s1.returnSeconds.toFixed(2)} s`,
    );
  }
  await server.close();
  const mem = figures(memory, workload.transactions.length, total);
  const srv = figures(onServer, serverTx, serverTotal);
  const met = (r) => `target ≥ ${TARGET}: ${r >= TARGET ? 'met' : 'MISSED'}`;
  log(`
Returns (medians of ${repeats} rounds; ratios are medians of per-round ratios)
  engine.addReturns, memory store                ${count(mem.returns.tps)} returns/s (${count(decided.adjusted)} adjusted, ${count(decided.refused)} refused)
  engine.addReturns, PostgreSQL ${server.version.padEnd(17)}${count(srv.returns.tps)} returns/s
  addTransactions beside returns ÷ without, memory store   ${ratio(mem.ratio)}   ${met(mem.ratio)}
    (${count(mem.beside.tps)} tx/s beside returns, ${count(mem.without.tps)} tx/s without)
  addTransactions beside returns ÷ without, PostgreSQL     ${ratio(srv.ratio)}   ${met(srv.ratio)}
    (${count(srv.beside.tps)} tx/s beside returns, ${count(srv.without.tps)} tx/s without)`);
  return disagreement;
}
