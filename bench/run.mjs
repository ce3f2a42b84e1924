// Benchmarks of cashback-engine against its built output (run `npm run build` first).
//   npm run bench          full sizes (several minutes)
//   npm run bench:smoke    small sizes (CI)
// Prints figures and ratios, each ratio against a baseline measured in the same run, and writes
// them to .bench-data/results/. Wall-clock figures never fail the run: the exit code is 1 only
// when implementations disagree on what they pay (2 when there is no build).
// BENCH_DIST=<path of an index.js> benchmarks another build than dist/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchJre, benchZen, disagreement, naiveScan } from './compare.mjs';
import {
  categoryOf,
  generateCustomers,
  generateOffers,
  generateTransactions,
  merchantName,
  offeredMerchantCount,
  offerMerchants,
} from './data.mjs';
import {
  benchDecide,
  benchOfferCounts,
  customerMap,
  decideResults,
  lookupsPass,
  offersByKey,
  parseBatches,
} from './decide.mjs';
import { withFunding } from './funding.mjs';
import { benchReplay, DATA_DIR, ensureNdjson } from './replay.mjs';
import { withShapes } from './shapes.mjs';
import { format, ratiosOf, rows } from './table.mjs';
import { buildInfo, count, engine, log, SEED, SIZES, throughput, timed } from './util.mjs';

const { compileOffers, createReplay, resolveOptions } = engine;
const smoke = process.argv.includes('--smoke');
const size = smoke ? SIZES.smoke : SIZES.full;
const started = performance.now();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const machine = {
  node: process.version,
  cpu: `${cpus().length} × ${cpus()[0]?.model}`,
  load: load(),
};
const build = buildInfo();
const options = resolveOptions({});
const failures = [];

/** Records a disagreement (`message`), if any; returns the word for the table. */
function check(message) {
  if (message === undefined) return 'agree';
  failures.push(message);
  console.error(`DISAGREEMENT: ${message}`);
  return 'DISAGREE';
}

log(
  `cashback-engine bench (${smoke ? 'smoke' : 'full'}): node ${machine.node}, ${machine.cpu}, ` +
    `load average ${machine.load}, seed ${SEED}`,
);
log(`build: dist sha256 ${build.sha256}, HEAD ${build.commit} (plus any uncommitted changes)`);
const customersRaw = generateCustomers(size.customers, SEED);
const customers = customerMap(customersRaw);
log(`${count(size.customers)} customers, ${count(size.transactions)} transactions per offer count`);

/** `undefined` when `a` and `b` (`{ paid, totalCashback }`) paid the same, else what differs. */
function samePayments(nameA, a, nameB, b) {
  if (a.paid === b.paid && a.totalCashback === b.totalCashback) return undefined;
  return `${nameA} paid ${a.paid} / ${a.totalCashback}, ${nameB} ${b.paid} / ${b.totalCashback}`;
}

/** What `createReplay` pays over `raw` with these offers (untimed). */
function replaySummary(offersJson, raw) {
  const session = createReplay({ offers: offersJson, customers: customersRaw });
  for (let i = 0; i < raw.length; i += size.batch) session.push(raw.slice(i, i + size.batch));
  return session.summary();
}

/** Figure 2 at one offer count: decide, naive scan and json-rules-engine on plain offers. */
async function figure2(n, batches) {
  const plainJson = generateOffers(n, SEED, true);
  const plain = compileOffers(plainJson);
  const items = batches.flat();
  const parsed = items.map((r) => r.value);
  const common = Math.max(size.naiveTransactions, size.jreTransactions);
  const oursResults = decideResults([items.slice(0, common)], plain, options, customers);
  const scan = naiveScan(plainJson, customersRaw);
  const naiveTxs = parsed.slice(0, size.naiveTransactions);
  const naiveRuns = [];
  const lookupRuns = [];
  const byKey = offersByKey(plain);
  const alongside = () => {
    naiveRuns.push(timed(() => scan(naiveTxs)));
    lookupRuns.push(lookupsPass(batches, byKey, customers));
  };
  const ours = benchDecide(batches, plain, options, customers, size.repeats, alongside);
  const naiveSeconds = naiveRuns.map((r) => r.seconds);
  const naive = { ...throughput(naiveTxs.length, naiveSeconds), results: naiveRuns[0].result };
  const total = batches.reduce((n, b) => n + b.length, 0);
  const lookups = throughput(
    total,
    lookupRuns.map((r) => r.seconds),
  );
  log(`  naive scan: ${count(naive.tps)} tx/s over ${count(naive.items)} transactions`);
  const jre = await benchJre(parsed.slice(0, size.jreTransactions), plainJson, customersRaw);
  log(`  json-rules-engine: ${count(jre.tps)} tx/s over ${count(jre.items)} transactions`);
  const zen = await benchZen(parsed.slice(0, size.jreTransactions), plainJson, customersRaw);
  log(
    zen === undefined
      ? '  zen-engine: not installed, not run (npm install --no-save @gorules/zen-engine@0.54.0)'
      : `  zen-engine: ${count(zen.tps)} tx/s over ${count(zen.items)} transactions`,
  );
  const agreement = {
    naive: check(disagreement('decide', oursResults, 'naive', naive.results)),
    jre: check(disagreement('decide', oursResults, 'json-rules-engine', jre.results)),
    naiveJre: check(disagreement('naive', naive.results, 'json-rules-engine', jre.results)),
    zen:
      zen === undefined
        ? 'not run'
        : check(disagreement('decide', oursResults, 'zen-engine', zen.results)),
  };
  const strip = ({ results, ...f }) => ({ ...f, paid: results.filter((r) => r !== null).length });
  return {
    offers: n,
    ours,
    lookups,
    naive: strip(naive),
    jre: strip(jre),
    zen: zen === undefined ? undefined : strip(zen),
    agreement,
  };
}

// Figure 3 first: streaming replay from NDJSON vs JSON.parse alone, each in its own process,
// while this process is still small. (Run after figures 1-2, the children shared the two cores
// with the background GC of this process's multi-GB heap: both figures fell by a fifth.) The
// replay must pay what `decide` pays on the same transactions in figure 1 (checked below).
const replaySpec = {
  count: size.transactions,
  customers: size.customers,
  offers: size.compareOffers,
  seed: SEED,
};
const { file, written } = ensureNdjson(replaySpec);
log(`  NDJSON ${written ? 'written' : 'reused'}: ${file}`);
const fig3 = await benchReplay({ ...replaySpec, file }, size.replayRepeats);
// Figure 1 at every offer count, interleaved; figure 2 at compareOffers on the same transactions.
// At compareOffers, `decide` also runs on the same offers with a budget and a cap on each, ample
// and tight (docs/benchmarks.md, "Funding controls").
const FUNDING = ['ample', 'tight'];
/**
 * The same offers with rewards and scopes: a scoped one lists its merchant and the next two, or
 * names its merchant's category code (docs/benchmarks.md, "Rewards and scopes").
 */
function shapedOffers(json, n) {
  const places = offerMerchants(n);
  return withShapes(json, (i, byList) => {
    const m = places[i][0];
    return byList ? { merchants: [m, m + 1, m + 2].map(merchantName) } : { mcc: [categoryOf(m)] };
  });
}
const sets = size.offerCounts.map((n) => {
  const json = generateOffers(n, SEED);
  const offers = compileOffers(json);
  const shapedJson = shapedOffers(json, n);
  const spec = { count: size.transactions, customers: size.customers, offers: n, seed: SEED };
  const raw = [...generateTransactions(spec)];
  const batches = parseBatches(raw, size.batch, options.timeZone);
  if (batches.some((b) => b.some((r) => !r.ok))) throw new Error('bench data: invalid transaction');
  const funded =
    n === size.compareOffers
      ? FUNDING.map((kind) => ({ kind, json: withFunding(json, kind) }))
      : [];
  for (const f of funded) f.offers = compileOffers(f.json);
  return { n, offers, raw, batches, funded, shapedJson, shaped: compileOffers(shapedJson) };
});
const fig1 = benchOfferCounts(sets, options, customers, size.repeats).map((f, k) => {
  const n = sets[k].n;
  log(
    `  ${count(n)} offers: decide ${count(f.decide.tps)} tx/s, lookups ${count(f.lookups.tps)} tx/s, floor ${count(f.floor.tps)} tx/s`,
  );
  for (const [kind, d] of Object.entries(f.funded))
    log(`    with ${kind} budgets and caps: decide ${count(d.tps)} tx/s, ${count(d.paid)} paid`);
  log(
    `    with rewards and scopes: decide ${count(f.shaped.tps)} tx/s, ${count(f.shaped.paid)} paid`,
  );
  return { offers: n, merchantsWithOffers: offeredMerchantCount(n), ...f };
});
const compared = sets.find((s) => s.n === size.compareOffers);
const comparedFig = fig1.find((f) => f.offers === size.compareOffers);
// Ample budgets and caps pay what no budget pays; tight ones, decided batch by batch with a
// caller's `FundingLedger`, pay what `createReplay` pays.
const fundingAgreement = {
  ample: check(
    samePayments(
      'decide with ample funding',
      comparedFig.funded.ample,
      'decide without',
      comparedFig.decide,
    ),
  ),
  tight: check(
    samePayments(
      'decide with tight funding',
      comparedFig.funded.tight,
      'createReplay with it',
      replaySummary(compared.funded.find((f) => f.kind === 'tight').json, compared.raw),
    ),
  ),
  // Rewards and scopes decided batch by batch over the bench's own purchase lists (keyed as the
  // offer set's historyKeysOf says) pay what createReplay pays.
  shaped: check(
    samePayments(
      'decide with rewards and scopes',
      comparedFig.shaped,
      'createReplay with them',
      replaySummary(compared.shapedJson, compared.raw),
    ),
  ),
};
sets.length = 0;
const fig2 = await figure2(compared.n, compared.batches);

// Figure 3 against figure 1: the same payments.
const same = comparedFig.decide;
const got = fig3.replay.summary;
fig3.agreement = check(
  got.paid === same.paid && got.totalCashback === same.totalCashback
    ? undefined
    : `replay paid ${got.paid} / ${got.totalCashback}, decide ${same.paid} / ${same.totalCashback}`,
);

// The table.
const ratios = ratiosOf(fig1, fig2, fig3);
const table = rows(fig1, fig2, fig3, ratios, fundingAgreement);
const seconds = (performance.now() - started) / 1000;
log(
  `\nResults (${smoke ? 'smoke' : 'full'} sizes, medians of ${size.repeats} rounds (replay: ${size.replayRepeats}); ratios are medians of per-round ratios; targets are reported, never enforced)`,
);
for (const l of format(table)) log(l);
const storing = fig1.map((f) => `${f.decide.storeSeconds.toFixed(2)} s`).join(' / ');
const offerCounts = fig1.map((f) => count(f.offers)).join(' / ');
log(`
Figures 1–2 start from transactions already parsed by parseTransaction (outside the timing).
Only the decide calls are timed; storing each batch's accepted transactions in the state's Maps
took another ${storing} per pass (${offerCounts} offers).
Throughput is per transaction, so the slow baselines run on the first transactions only.
"Lookups alone" is the least any correct decide does per transaction (find the customer, record
the id among the stored ones, find the merchant's offers, set an outcome), with the same
structures: decide cannot be faster, so its ratios bound decide's.
Load average ${machine.load} at start, ${load()} at end, on ${cpus().length} cores: a busy machine makes figures noisy.`);
if (smoke)
  log(
    'Smoke sizes are too small for the figures to mean much; CI runs them for the agreement checks.',
  );
log(`Done in ${seconds.toFixed(1)} s.`);

const out = join(DATA_DIR, 'results', smoke ? 'latest-smoke.json' : 'latest.json');
mkdirSync(join(DATA_DIR, 'results'), { recursive: true });
const report = {
  mode: smoke ? 'smoke' : 'full',
  machine: { ...machine, loadAtEnd: load() },
  build,
  seed: SEED,
  sizes: size,
  figure1: fig1,
  figure2: fig2,
  figure3: fig3,
  ratios,
  failures,
  seconds,
};
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
log(`Figures written to ${out}`);
process.exitCode = failures.length > 0 ? 1 : 0;
