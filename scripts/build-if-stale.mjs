// Builds dist/ with tsup when it is missing or older than what it is built from, and says so;
// skips the build when dist/ is current. `npm start` and `npm run demo` run it first.
//
//   node scripts/build-if-stale.mjs          build if stale
//   node scripts/build-if-stale.mjs --check  exit 1 with the reason if stale, build nothing
//
// "Older" compares modification times: the newest file of src/ (and the build's own config)
// against the oldest file package.json promises in dist/ (its `exports` and `bin` targets).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.cwd();
const INPUTS = ['src', 'package.json', 'tsconfig.json', 'tsup.config.ts', 'tsup.config.json'];

/** Every file under `path` (or `path` itself), with its modification time in ms. */
function* files(path) {
  if (!existsSync(path)) return;
  const stat = statSync(path);
  if (!stat.isDirectory()) {
    yield { path, mtime: stat.mtimeMs };
    return;
  }
  for (const entry of readdirSync(path)) yield* files(join(path, entry));
}

/** The dist/ files package.json points at: every string leaf of `exports`, and `bin`. */
function promisedOutputs() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const found = new Set();
  const walk = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/')) found.add(value.slice(2));
    } else if (value !== null && typeof value === 'object') {
      for (const inner of Object.values(value)) walk(inner);
    }
  };
  walk(pkg.exports);
  walk(pkg.bin);
  return [...found].sort();
}

/** Why dist/ must be built, or undefined when it is current. */
function staleReason() {
  const outputs = promisedOutputs();
  const missing = outputs.find((file) => !existsSync(join(root, file)));
  if (missing !== undefined) return `${missing} does not exist`;
  const oldest = outputs
    .map((file) => ({ path: file, mtime: statSync(join(root, file)).mtimeMs }))
    .reduce((a, b) => (b.mtime < a.mtime ? b : a));
  for (const input of INPUTS) {
    for (const file of files(join(root, input))) {
      if (file.mtime > oldest.mtime) {
        return `${relative(root, file.path)} is newer than ${oldest.path}`;
      }
    }
  }
  return undefined;
}

const reason = staleReason();
if (process.argv.includes('--check')) {
  if (reason !== undefined) {
    console.error(`dist/ is not current (${reason}): run \`npm run build\``);
    process.exit(1);
  }
} else if (reason !== undefined) {
  console.error(`Building dist/ (${reason})…`);
  const tsup = join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js');
  const run = spawnSync(process.execPath, [tsup, '--silent'], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  console.error('Built dist/.');
} else {
  console.error('dist/ is current: no build.');
}
