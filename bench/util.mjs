// Shared by the bench files: the engine under test (the built output), sizes, timing, formatting.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A private copy of dist/ for this run and its child processes: others may rebuild dist/ (tsup
 * empties it first) while a long run is under way. Removed when the run ends.
 */
function snapshotDist() {
  const built = new URL('../dist/', import.meta.url);
  if (!existsSync(new URL('index.js', built))) {
    console.error('bench: dist/index.js not found; run `npm run build` first');
    process.exit(2);
  }
  const dir = fileURLToPath(new URL(`../.bench-data/dist-${process.pid}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(built))
    if (f.endsWith('.js')) copyFileSync(new URL(f, built), join(dir, f));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  process.on('SIGINT', () => process.exit(130));
  return join(dir, 'index.js');
}

/**
 * What the benches call of a build, as one object: its `cashback-engine` entry (`index.js`) and
 * its `cashback-engine/engine` entry (`engine.js`: `createEngine`, the memory store, partners). A
 * build from before the engine had an entry of its own holds all of them in `index.js`, so that a
 * comparison with it (`BENCH_BASE`) still finds them.
 * @param indexFile - the path of a build's index.js
 */
export async function entriesOf(indexFile) {
  const root = await import(pathToFileURL(indexFile).href);
  const engineFile = join(dirname(indexFile), 'engine.js');
  if (!existsSync(engineFile)) return root;
  return { ...root, ...(await import(pathToFileURL(engineFile).href)) };
}

/** The engine under test; BENCH_DIST (a path) benchmarks another build. */
process.env.BENCH_DIST ??= snapshotDist();
export const engine = await entriesOf(process.env.BENCH_DIST);

/** Which build the figures are of: a hash of its .js files, and the commit checked out. */
export function buildInfo() {
  const dir = dirname(process.env.BENCH_DIST);
  const hash = createHash('sha256');
  for (const f of readdirSync(dir).sort())
    if (f.endsWith('.js')) hash.update(readFileSync(join(dir, f)));
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {}
  return { sha256: hash.digest('hex').slice(0, 12), commit };
}

export const SEED = 20_261_121;

/** Sizes of the full run and of `--smoke` (CI). */
export const SIZES = {
  full: {
    customers: 100_000,
    transactions: 1_000_000,
    offerCounts: [10, 1_000, 10_000],
    compareOffers: 1_000,
    jreTransactions: 2_000,
    naiveTransactions: 50_000,
    batch: 10_000,
    repeats: 5,
    replayRepeats: 5,
  },
  smoke: {
    customers: 5_000,
    transactions: 50_000,
    offerCounts: [10, 1_000, 10_000],
    compareOffers: 1_000,
    jreTransactions: 100,
    naiveTransactions: 5_000,
    batch: 10_000,
    repeats: 1,
    replayRepeats: 1,
  },
};

/** Runs `fn` (after a full GC unless `gc` is false); returns its result and the elapsed seconds. */
export function timed(fn, { gc = true } = {}) {
  if (gc) globalThis.gc?.();
  const start = performance.now();
  const result = fn();
  return { result, seconds: (performance.now() - start) / 1000 };
}

/** The same for an async `fn`. */
export async function timedAsync(fn) {
  globalThis.gc?.();
  const start = performance.now();
  const result = await fn();
  return { result, seconds: (performance.now() - start) / 1000 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Throughput of `items` processed in each of several runs: the median run, and every run. */
export function throughput(items, runSeconds) {
  const seconds = median(runSeconds);
  return { items, seconds, tps: items / seconds, runSeconds };
}

/**
 * The ratio of two throughputs. Measured in rounds (one run of each per round), it is the median
 * of the per-round ratios: a load that comes and goes on a shared machine then hits both sides of
 * each ratio alike. Otherwise, the ratio of the medians.
 */
export function ratioOf(a, b) {
  const n = a.runSeconds.length;
  if (n !== b.runSeconds.length) return a.tps / b.tps;
  const rounds = a.runSeconds.map((s, i) => a.items / s / (b.items / b.runSeconds[i]));
  return median(rounds);
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `1234567` → `1,234,567`. */
export const count = (n) => grouped.format(n);

/**
 * A ratio: whole numbers from 100, else 2 decimals, and 3 below 1 so that a ratio just under its
 * target (0.596 against 0.60) does not print as the target itself.
 */
export const ratio = (r) => (r >= 100 ? grouped.format(r) : r.toFixed(r < 1 ? 3 : 2));

export const log = (...args) => console.log(...args);
