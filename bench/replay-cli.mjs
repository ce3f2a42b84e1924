// `cashback replay` over files, against a plain Node script that only reads the same NDJSON file
// line by line and JSON.parses each line (single thread). Every run is its own process, timed
// from start to exit (loading customers and offers included; the floor too) with its own peak RSS.
//   node bench/replay-cli.mjs            1,000,000 transactions, 100,000 customers, 1,000 offers
//   node bench/replay-cli.mjs --smoke    20,000 transactions, 2,000 customers (CI)
// Also replays the same transactions from gzip, CSV and Parquet, and checks that every run pays
// the same (exit code 1 when not). Figures go to docs/benchmarks.md by hand, not into comments.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { stringify } from 'csv-stringify';
import { parquetWriteFile } from 'hyparquet-writer';
import { generateCustomers, generateOffers, generateTransactions } from './data.mjs';
import { DATA_DIR, ensureNdjson } from './replay.mjs';
import { count, SEED } from './util.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist', 'cli.js');
const run = promisify(execFile);
const smoke = process.argv.includes('--smoke');
const spec = smoke
  ? { count: 20_000, customers: 2_000, offers: 1_000, seed: SEED }
  : { count: 1_000_000, customers: 100_000, offers: 1_000, seed: SEED };
const repeats = smoke ? 1 : 3;

if (!existsSync(cli)) {
  console.error('bench/replay-cli.mjs: no dist/cli.js; run `npm run build` first');
  process.exit(2);
}

const { file: ndjson } = ensureNdjson(spec);
const base = ndjson.replace(/\.ndjson$/, '');
const inputs = { ndjson, gzip: `${ndjson}.gz`, csv: `${base}.csv`, parquet: `${base}.parquet` };
const offersFile = join(DATA_DIR, `offers-s${spec.seed}-o${spec.offers}.json`);
const customersFile = join(DATA_DIR, `customers-s${spec.seed}-c${spec.customers}.ndjson`);
mkdirSync(DATA_DIR, { recursive: true });
if (!existsSync(offersFile))
  writeFileSync(offersFile, JSON.stringify(generateOffers(spec.offers, spec.seed)));
if (!existsSync(customersFile)) {
  writeFileSync(
    customersFile,
    generateCustomers(spec.customers, spec.seed)
      .map((c) => JSON.stringify(c))
      .join('\n'),
  );
}
const flat = (t) => ({
  transaction_id: t.transaction_id,
  description: t.description,
  customer_id: t.customer_id,
  date: t.date,
  amount: t.amount,
  'merchant.id': t.merchant.id,
  'merchant.name': t.merchant.name,
  'merchant.category_code': t.merchant.category_code,
  'location.country': t.location.country,
  'location.city': t.location.city,
});
if (!existsSync(inputs.gzip))
  await pipeline(createReadStream(ndjson), createGzip(), createWriteStream(inputs.gzip));
if (!existsSync(inputs.csv)) {
  const out = createWriteStream(inputs.csv);
  const csv = stringify({ header: true });
  csv.pipe(out);
  for (const t of generateTransactions(spec)) if (!csv.write(flat(t))) await once(csv, 'drain');
  csv.end();
  await once(out, 'close');
}
if (!existsSync(inputs.parquet)) {
  const rows = [...generateTransactions(spec)].map(flat);
  const columnData = Object.keys(rows[0]).map((name) => ({
    name,
    data: rows.map((r) => r[name]),
    type: name === 'amount' ? 'DOUBLE' : 'STRING',
  }));
  parquetWriteFile({ filename: inputs.parquet, columnData, rowGroupSize: 100_000 });
}

/** One `cashback replay` run: seconds from start to exit, peak RSS, its summary. */
async function replayRun(file, workers) {
  const args = ['--offers', offersFile, '--customers', customersFile, '--transactions', file];
  const start = performance.now();
  const { stdout, stderr } = await run(
    process.execPath,
    [
      join(here, 'replay-cli-child.mjs'),
      'cli',
      cli,
      'replay',
      ...args,
      '--json',
      '--workers',
      String(workers),
    ],
    { maxBuffer: 64 * 2 ** 20 },
  );
  const seconds = (performance.now() - start) / 1000;
  const { maxRssMiB } = JSON.parse(stderr.trim().split('\n').at(-1));
  const summary = JSON.parse(stdout);
  return { seconds, maxRssMiB, paid: summary.paid, total: summary.totalCashback };
}

/**
 * The floor: a process that reads the NDJSON file line by line and JSON.parses each line, with
 * the file stream's default read size (64 KiB), or with `pieceBytes` at a time.
 */
async function floorRun(pieceBytes) {
  const start = performance.now();
  const { stderr } = await run(process.execPath, [
    join(here, 'replay-cli-child.mjs'),
    'floor',
    ndjson,
    ...(pieceBytes === undefined ? [] : [String(pieceBytes)]),
  ]);
  const seconds = (performance.now() - start) / 1000;
  return { seconds, maxRssMiB: JSON.parse(stderr.trim().split('\n').at(-1)).maxRssMiB };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
const floorRuns = [];
// The same floor reading 16 KiB at a time, as the command does (src/files/readRecords.ts says
// why): a second reference, so that the ratio to the plain script is not read as more than it is.
const pieceFloorRuns = [];
const runsOf = { 1: [], 2: [] };
for (let i = 0; i < repeats; i++) {
  floorRuns.push(await floorRun());
  pieceFloorRuns.push(await floorRun(16 * 1024));
  for (const w of [1, 2]) runsOf[w].push(await replayRun(ndjson, w));
}
const floor = median(floorRuns.map((r) => r.seconds));
const pieceFloor = median(pieceFloorRuns.map((r) => r.seconds));
const row = (label, runs) => {
  const seconds = median(runs.map((r) => r.seconds));
  const tps = spec.count / seconds;
  results.push({
    label,
    seconds,
    tps,
    ratio: floor / seconds,
    pieceRatio: pieceFloor / seconds,
    maxRssMiB: Math.max(...runs.map((r) => r.maxRssMiB)),
    paid: runs[0].paid,
    total: runs[0].total,
  });
};
row('cashback replay, NDJSON, 1 worker', runsOf[1]);
row('cashback replay, NDJSON, 2 workers', runsOf[2]);
for (const kind of ['gzip', 'csv', 'parquet'])
  row(`cashback replay, ${kind}, 1 worker`, [await replayRun(inputs[kind], 1)]);

console.log(
  `cashback replay over files (${smoke ? 'smoke' : 'full'}): ${count(spec.count)} transactions, ${count(spec.customers)} customers, ${count(spec.offers)} offers; medians of ${repeats} run(s)`,
);
console.log(
  `floor: read NDJSON + JSON.parse, one thread: ${count(spec.count / floor)} lines/s (${floor.toFixed(2)} s), peak RSS ${count(Math.max(...floorRuns.map((r) => r.maxRssMiB)))} MiB`,
);
console.log(
  `floor reading 16 KiB at a time: ${count(spec.count / pieceFloor)} lines/s (${pieceFloor.toFixed(2)} s), peak RSS ${count(Math.max(...pieceFloorRuns.map((r) => r.maxRssMiB)))} MiB`,
);
for (const r of results) {
  console.log(
    `${r.label.padEnd(40)} ${count(r.tps).padStart(10)} tx/s  ${r.seconds.toFixed(2).padStart(7)} s  ratio to floor ${r.ratio.toFixed(2)} (to the 16 KiB floor ${r.pieceRatio.toFixed(2)})  peak RSS ${count(r.maxRssMiB)} MiB  paid ${count(r.paid)} / ${r.total}`,
  );
}
const disagree = results.filter((r) => r.paid !== results[0].paid || r.total !== results[0].total);
if (disagree.length > 0) {
  console.error(
    `DISAGREEMENT: ${disagree.map((r) => r.label).join(', ')} pay otherwise than ${results[0].label}`,
  );
  process.exitCode = 1;
}
const [one, two] = results;
const twoOverOne = one.seconds / two.seconds;
const within = results.every((r) => r.maxRssMiB <= 400);
const met = (ok) => (ok ? 'met' : 'MISSED');
console.log(
  'Targets (reported, never enforced): ' +
    `1 worker ÷ floor ${one.ratio.toFixed(2)} (≥ 0.65: ${met(one.ratio >= 0.65)}); ` +
    `2 workers ÷ 1 worker ${twoOverOne.toFixed(2)} (≥ 1.3: ${met(twoOverOne >= 1.3)}); ` +
    `peak RSS ≤ 400 MiB in every run: ${met(within)}.`,
);
