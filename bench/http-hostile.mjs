// Hostile clients against the partner HTTP API (run `npm run build` first; BENCH_DIST=<path of
// an index.js> measures another build, e.g. one from before a change, with the same script):
//   node bench/http-hostile.mjs
// 1. Bodies under the byte limit that cost the most to read: 2.5 million tiny items
//    (`[0,0,…]`) and 2.5 million levels of nesting (`[[[…]]]`), about 5 MB each. For each, the
//    time from sending it to its answer, alone; then 8 of them at once while a client asks
//    GET /healthz in turn, and how long the longest /healthz waited.
// 2. The right key's GET /get-token while wrong keys for the same application id arrive at
//    200 per second, each from a new client address (the app's `clientAddress` reads a header
//    here, to stand for addresses on 127.0.0.1): the answers' statuses and latencies.
// BENCH_KEY_CHECKS=<n> sets limits.keyChecksInFlight. Wall-clock figures never fail the run.
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildInfo, engine, log } from './util.mjs';

const http = await import(pathToFileURL(join(dirname(process.env.BENCH_DIST), 'http.js')).href);
const { createEngine, createMemoryPartners } = engine;
const SECRET = 'bench-token-secret-of-at-least-32-bytes';
const KEY = 'bench-application-key';
const ms = (x) => `${x.toFixed(1)} ms`;
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

const build = buildInfo();
log(
  `cashback-engine hostile-client bench: node ${process.version}, ${cpus().length} × ` +
    `${cpus()[0]?.model}, load average ${loadavg()[0].toFixed(2)}; dist sha256 ${build.sha256}, ` +
    `HEAD ${build.commit}, BENCH_DIST ${process.env.BENCH_DIST}`,
);

const partners = createMemoryPartners([
  { application_id: 'bank', application_key_hash: await http.hashApplicationKey(KEY) },
]);

/** A server on 127.0.0.1 whose client address is the `x-bench-address` header. */
async function start() {
  const app = http.createHttpApp({
    engine: createEngine({ partners }),
    partners,
    tokenSecret: SECRET,
    // BENCH_KEY_CHECKS=<n> sets limits.keyChecksInFlight (builds that have it).
    ...(process.env.BENCH_KEY_CHECKS
      ? { limits: { keyChecksInFlight: Number(process.env.BENCH_KEY_CHECKS) } }
      : {}),
    clientAddress: (c) => c.req.header('x-bench-address') ?? 'local',
  });
  return http.serveHttp(app, { port: 0, host: '127.0.0.1' });
}

// ---- 1. bodies ----
const N = 2_500_000;
const items = new TextEncoder().encode(`[${'0,'.repeat(N - 1)}0]`);
const nested = new TextEncoder().encode(`${'['.repeat(N)}${']'.repeat(N)}`);
{
  const server = await start();
  const token = (
    await (
      await fetch(`${server.url}/get-token`, {
        headers: { applicationId: 'bank', applicationKey: KEY },
      })
    ).json()
  ).Token;
  const post = async (body) => {
    const t = performance.now();
    const r = await fetch(`${server.url}/transactions`, {
      method: 'POST',
      headers: { Token: token, 'content-type': 'application/json' },
      body,
    });
    const answer = await r.json();
    return { ms: performance.now() - t, status: r.status, code: answer.error?.code };
  };
  for (const [name, body] of [
    ['2.5 million items', items],
    ['2.5 million levels', nested],
  ]) {
    await post(body); // warm-up
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await post(body));
    log(
      `  ${name} (${(body.length / 1e6).toFixed(1)} MB): ${runs[0].status} ${runs[0].code}, ` +
        `answered in ${ms(
          quantile(
            runs.map((r) => r.ms),
            0.5,
          ),
        )} (median of 5; ` +
        `${runs.map((r) => r.ms.toFixed(0)).join(', ')} ms)`,
    );
  }
  // 8 at once (4 of each) while /healthz is asked in turn.
  let done = false;
  const health = [];
  const healthLoop = (async () => {
    while (!done) {
      const t = performance.now();
      await (await fetch(`${server.url}/healthz`)).text();
      health.push(performance.now() - t);
    }
  })();
  const t = performance.now();
  const all = await Promise.all(Array.from({ length: 8 }, (_, i) => post(i % 2 ? items : nested)));
  const total = performance.now() - t;
  done = true;
  await healthLoop;
  log(
    `  8 at once: all answered in ${ms(total)} (statuses ${[...new Set(all.map((a) => a.status))]}); ` +
      `meanwhile ${health.length} GET /healthz, the slowest in ${ms(Math.max(...health))}, ` +
      `median ${ms(quantile(health, 0.5))}`,
  );
  await server.close();
}

// ---- 2. wrong keys from rotating addresses ----
{
  const server = await start();
  const SECONDS = 15;
  const WRONG_PER_SECOND = 200;
  const RIGHT_EVERY_MS = 50;
  const stopAt = performance.now() + SECONDS * 1000;
  const get = async (key, address) => {
    const t = performance.now();
    const r = await fetch(`${server.url}/get-token`, {
      headers: { applicationId: 'bank', applicationKey: key, 'x-bench-address': address },
    });
    await r.text();
    return { ms: performance.now() - t, status: r.status };
  };
  const wrong = [];
  const right = [];
  // The wrong keys come from a worker thread: an event loop of their own, as another process's.
  const attacker = new Promise((resolve, reject) => {
    const worker = new Worker(
      `
      const { parentPort, workerData } = require('node:worker_threads');
      const { url, perSecond, seconds } = workerData;
      const results = [];
      const pending = [];
      const start = performance.now();
      (async () => {
        for (let i = 0; performance.now() < start + seconds * 1000; i++) {
          const wait = start + (i * 1000) / perSecond - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const address = '10.' + ((i >> 16) & 255) + '.' + ((i >> 8) & 255) + '.' + (i & 255);
          const t = performance.now();
          pending.push(
            fetch(url + '/get-token', {
              headers: { applicationId: 'bank', applicationKey: 'wrong-key-' + i, 'x-bench-address': address },
            })
              .then(async (r) => { await r.text(); results.push({ ms: performance.now() - t, status: r.status }); })
              .catch(() => results.push({ ms: performance.now() - t, status: 'error' })),
          );
        }
        await Promise.all(pending);
        parentPort.postMessage(results);
      })();
      `,
      {
        eval: true,
        workerData: { url: server.url, perSecond: WRONG_PER_SECOND, seconds: SECONDS },
      },
    );
    worker.once('message', (results) => {
      wrong.push(...results);
      resolve();
    });
    worker.once('error', reject);
  });
  const partner = (async () => {
    for (let i = 0; performance.now() < stopAt; i++) {
      // The partner's own addresses, 20 requests each: under the per-address request limit.
      right.push(await get(KEY, `partner-${Math.floor(i / 20)}`));
      await new Promise((r) => setTimeout(r, RIGHT_EVERY_MS));
    }
  })();
  await Promise.all([attacker, partner]);
  const counts = (rs) =>
    Object.entries(
      rs.reduce((m, r) => {
        m[r.status] = (m[r.status] ?? 0) + 1;
        return m;
      }, {}),
    )
      .map(([s, c]) => `${c}×${s}`)
      .join(', ');
  const ok = right.filter((r) => r.status === 200).map((r) => r.ms);
  log(
    `  right key, ${right.length} requests while ${wrong.length} wrong keys arrived ` +
      `(${WRONG_PER_SECOND}/s, each from a new address): ${counts(right)}; latency of all ` +
      `p50 ${ms(
        quantile(
          right.map((r) => r.ms),
          0.5,
        ),
      )}, p99 ${ms(
        quantile(
          right.map((r) => r.ms),
          0.99,
        ),
      )}; ` +
      `of the 200s p99 ${ok.length ? ms(quantile(ok, 0.99)) : 'n/a'}`,
  );
  log(
    `  wrong keys: ${counts(wrong)}, p99 ${ms(
      quantile(
        wrong.map((r) => r.ms),
        0.99,
      ),
    )}`,
  );
  await server.close();
}
