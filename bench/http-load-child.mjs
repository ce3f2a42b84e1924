// The load generator of bench/http.mjs, in its own process so that it does not share the server's
// event loop: autocannon (programmatic API) against the server on 127.0.0.1.
// Usage: forked by bench/http.mjs with <customers> <transactions> <offers> <seed> <batch>.
// It builds every request body once, before any load: the JSON of each batch of the bench's
// transactions, as a Buffer (outside the JS heap, so building requests costs no GC). Messages:
//   { kind: 'post', url, token, connections, batches }  POST /transactions, the first `batches`
//     bodies, each sent exactly once (so no transaction id repeats within a pass)
//   { kind: 'get', url, token, connections, seconds, pages, dateFrom, dateTo, pageSize }
//     GET /cashback-payments for `seconds`, pages 1…`pages` in turn
//   { kind: 'exit' }
// Each answer: seconds from the first request to the last answer, latency percentiles, status
// counts, answer bytes, and this process's CPU time over the window.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { generateTransactions } from './data.mjs';

const [customers, transactions, offers, seed, batch] = process.argv.slice(2).map(Number);

const bodies = [];
let bytes = 0;
let current = [];
for (const tx of generateTransactions({ count: transactions, customers, offers, seed })) {
  current.push(tx);
  if (current.length === batch) {
    bodies.push(Buffer.from(JSON.stringify(current)));
    current = [];
  }
}
if (current.length > 0) bodies.push(Buffer.from(JSON.stringify(current)));
for (const b of bodies) bytes += b.length;

/**
 * Runs autocannon. Its callback comes at its next one-second sample tick, up to a second after the
 * last answer, and its latency histogram keeps whole milliseconds; so the wall time ends at the
 * last answer, and latencies are the response times autocannon reports for each answer.
 */
function load(options) {
  return new Promise((resolve, reject) => {
    const times = [];
    const cpu = process.cpuUsage();
    const start = performance.now();
    let last = start;
    const tracker = autocannon({ timeout: 120, ...options }, (err, result) => {
      if (err) reject(err);
      else resolve({ result, times, seconds: (last - start) / 1000, cpu: process.cpuUsage(cpu) });
    });
    tracker.on('response', (_client, _status, _bytes, responseTime) => {
      times.push(responseTime);
      last = performance.now();
    });
  });
}

/** The `p`-th percentile (0–100) of the ascending `sorted`, nearest rank. */
function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** What the parent needs of a result. */
function summary({ result, times, seconds, cpu }) {
  const sorted = Float64Array.from(times).sort();
  return {
    seconds,
    // CPU time of this process over the load window (first request to last answer).
    busy: (cpu.user + cpu.system) / 1e6 / seconds,
    answerBytes: result.throughput.total / Math.max(1, times.length),
    completed: result['2xx'] + result.non2xx,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]),
    ),
    latency: {
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1],
      count: sorted.length,
    },
  };
}

async function post({ url, token, connections, batches }) {
  if (batches > bodies.length) throw new Error(`only ${bodies.length} bodies, asked ${batches}`);
  let next = 0;
  const r = await load({
    url,
    connections,
    amount: batches,
    method: 'POST',
    headers: { Token: token, 'content-type': 'application/json' },
    // One call per request sent (autocannon builds the next request only when it will send it),
    // so each body goes out once; `sent` is checked against `batches` below.
    requests: [
      {
        setupRequest: (req) => {
          const body = bodies[next++];
          return body === undefined ? null : { ...req, path: '/transactions', body };
        },
      },
    ],
  });
  return { ...summary(r), sent: next };
}

async function get({ url, token, connections, seconds, pages, dateFrom, dateTo, pageSize }) {
  let page = 0;
  const base = `/cashback-payments?date_from=${dateFrom}&date_to=${dateTo}&page_size=${pageSize}`;
  const r = await load({
    url,
    connections,
    duration: seconds,
    headers: { Token: token },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          path: `${base}&current_page=${(page++ % pages) + 1}`,
        }),
      },
    ],
  });
  return { ...summary(r), requestsPerSecond: r.result['2xx'] / r.seconds };
}

process.on('message', async (m) => {
  try {
    if (m.kind === 'exit') process.exit(0);
    const answer = m.kind === 'post' ? await post(m) : await get(m);
    process.send(answer);
  } catch (err) {
    process.send({ error: String(err?.stack ?? err) });
  }
});
process.send({ ready: true, bodies: bodies.length, bytes });
