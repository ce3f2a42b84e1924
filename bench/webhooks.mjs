// Benchmark of webhook delivery (run `npm run build` first).
//   npm run bench:webhooks              full sizes (a few minutes)
//   npm run bench:webhooks -- --smoke   small sizes (CI)
// A receiver in a child process (bench/webhooks-receiver.mjs) answers 204 on 127.0.0.1. On the
// memory store, it measures:
//   - deliveries per second at concurrency 1 and 16 (runOnce over queued events);
//   - the time to drain a queue of 100,000 events at concurrency 16;
//   - addTransactions throughput (batches of 100: one cashback.created each) while a dispatcher
//     runs (start(), pollMs 10) against the same calls without one, in alternating rounds on
//     fresh engines after a warm-up: the ratio is the cost.
// Wall-clock figures never fail the run; the exit code is 1 when a delivery is missing.
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { engineWorkload } from './data.mjs';
import {
  buildInfo,
  count,
  engine,
  log,
  ratio,
  ratioOf,
  SEED,
  throughput,
  timedAsync,
} from './util.mjs';

const { createWebhookDispatcher, generateWebhookSecret } = await import(
  pathToFileURL(join(dirname(process.env.BENCH_DIST), 'webhooks.js')).href
);
const { createEngine, createMemoryPartners, createMemoryStore } = engine;

const smoke = process.argv.includes('--smoke');
const size = smoke
  ? {
      rate: 500,
      drain: 2_000,
      customers: 2_000,
      offers: 100,
      transactions: 20_000,
      batch: 1_000,
      rounds: 1,
    }
  : {
      rate: 5_000,
      drain: 100_000,
      customers: 20_000,
      offers: 1_000,
      transactions: 200_000,
      batch: 1_000,
      rounds: 3,
    };

const receiver = fork(new URL('./webhooks-receiver.mjs', import.meta.url));
process.on('exit', () => receiver.kill());
const ask = (message, key) =>
  new Promise((resolve) => {
    const on = (m) => {
      if (key in m) {
        receiver.off('message', on);
        resolve(m[key]);
      }
    };
    receiver.on('message', on);
    if (message !== undefined) receiver.send(message);
  });
const port = await ask(undefined, 'port');
const secret = generateWebhookSecret();
const PARTNER = 'bank-a';
const partners = [
  {
    application_id: PARTNER,
    webhook_url: `http://127.0.0.1:${port}/hooks`,
    webhook_secret: secret,
  },
];
let failed = false;

const info = buildInfo();
log(
  `cashback-engine webhooks bench (${smoke ? 'smoke' : 'full'}), build ${info.sha256} at ${info.commit}`,
);

/** A memory store with `n` queued cashback.created events of one record each. */
async function queued(n) {
  const store = createMemoryStore();
  for (let i = 0; i < n; i += 1_000) {
    const events = [];
    for (let k = i; k < Math.min(n, i + 1_000); k++) {
      events.push({
        id: `evt-${k}`,
        type: 'cashback.created',
        payload: {
          type: 'cashback.created',
          event_id: `evt-${k}`,
          timestamp: '2025-06-01T12:00:00.000Z',
          data: {
            records: [
              { transaction_id: `t${k}`, customer_id: 'c1', offer_id: 1, cashback_amount: '0.62' },
            ],
          },
        },
        created_at: '2025-06-01T12:00:00.000Z',
      });
    }
    await store.outbox.add(PARTNER, events);
  }
  return store;
}

async function drain(n, concurrency) {
  const store = await queued(n);
  const before = await ask('count', 'received');
  const dispatcher = createWebhookDispatcher({
    store,
    partners,
    allowLocalUrls: true,
    concurrency,
  });
  const { result, seconds } = await timedAsync(() => dispatcher.runOnce());
  const got = (await ask('count', 'received')) - before;
  if (result !== n || got !== n) {
    console.error(`bench: ${n} events, ${result} attempts, ${got} received`);
    failed = true;
  }
  return seconds;
}

const rates = {};
for (const c of [1, 16]) {
  const seconds = await drain(size.rate, c);
  rates[c] = size.rate / seconds;
  log(
    `deliveries/s at concurrency ${String(c).padStart(2)}: ${count(rates[c])} (${count(size.rate)} events in ${seconds.toFixed(2)} s)`,
  );
}
const drainSeconds = await drain(size.drain, 16);
log(
  `drain ${count(size.drain)} queued events at concurrency 16: ${drainSeconds.toFixed(1)} s (${count(size.drain / drainSeconds)}/s)`,
);

// addTransactions with and without a running dispatcher.
const {
  offers: offersRaw,
  customers: customersRaw,
  transactions: raw,
  batches,
} = engineWorkload(size, SEED);

async function addAll(withDispatcher) {
  const store = createMemoryStore();
  const e = createEngine({
    store,
    partners: createMemoryPartners(partners),
    clock: () => new Date('2025-12-31T12:00:00Z'),
  });
  await e.upsertOffers(offersRaw);
  await e.upsertCustomers(PARTNER, customersRaw);
  const dispatcher = withDispatcher
    ? createWebhookDispatcher({
        store,
        partners,
        allowLocalUrls: true,
        concurrency: 16,
        pollMs: 10,
      })
    : undefined;
  dispatcher?.start();
  const { seconds } = await timedAsync(async () => {
    for (const b of batches) await e.addTransactions(PARTNER, b);
  });
  await dispatcher?.stop();
  const events = (await store.outbox.list(PARTNER, { limit: 1e9 })).length;
  return { seconds, events };
}

const without = [];
const withD = [];
await addAll(false); // warm-up: the JIT, the engine's code paths
for (let r = 0; r < size.rounds; r++) {
  without.push((await addAll(false)).seconds);
  const run = await addAll(true);
  withD.push(run.seconds);
  log(
    `  round ${r + 1}: addTransactions ${without.at(-1).toFixed(2)} s alone, ${run.seconds.toFixed(2)} s with a dispatcher running (${count(run.events)} events written)`,
  );
}
const a = throughput(raw.length, without);
const b = throughput(raw.length, withD);
log(
  `addTransactions: ${count(a.tps)} tx/s alone, ${count(b.tps)} tx/s with a dispatcher running: ratio ${ratio(ratioOf(b, a))}`,
);
receiver.send('exit');
process.exitCode = failed ? 1 : 0;
