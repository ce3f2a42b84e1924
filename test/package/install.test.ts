/**
 * `npm install cashback-engine` as a new user runs it: the packed package installed with npm into
 * an empty project (from the registry, the optional peers left out), on the Node that runs the
 * tests (20 in CI). npm prints no warning; node_modules holds at most 45 packages and 26 MB on disk
 * (README, "Install"); the installed `cashback backtest --report` and `backtestReport` under
 * `require` write the very bytes of the report from before its browser code was built into dist/.
 *
 * Needs a current `dist/` (`npm run build`, which CI runs before the tests) and the npm registry.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SHA256, writeReportInputs } from '../files/_reportBytes.js';
import { requireCurrentDist } from './_distCurrent.js';
import { packInto } from './_pack.js';

const MAX_PACKAGES = 45;
// 25 MB until rewards and scopes added about 0.1 MB to dist/ (docs/concepts.md, Rewards).
const MAX_BYTES = 26_000_000;

let work: string;
let project: string;
let npmOutput: { stdout: string; stderr: string };

/** The environment less the `npm_*` variables a parent `npm test` sets for this repository. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
}

/** The package folders under a node_modules folder, nested ones included. */
function packagesIn(modules: string): string[] {
  const found: string[] = [];
  if (!existsSync(modules)) return found;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@')
      ? readdirSync(join(modules, name)).map((n) => join(modules, name, n))
      : [join(modules, name)];
    for (const dir of dirs) {
      if (!existsSync(join(dir, 'package.json'))) continue;
      found.push(dir);
      found.push(...packagesIn(join(dir, 'node_modules')));
    }
  }
  return found;
}

/** Bytes on disk under `path`, as `du` counts them: the blocks of every file and folder. */
function diskUsage(path: string): number {
  const stat = lstatSync(path);
  let bytes = stat.blocks * 512;
  if (stat.isDirectory()) {
    for (const name of readdirSync(path)) bytes += diskUsage(join(path, name));
  }
  return bytes;
}

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** Runs a command in the project; throws with its output unless it exits 0. */
function inProject(command: string, args: readonly string[]): { stdout: string; stderr: string } {
  const r = spawnSync(command, args, { cwd: project, env: cleanEnv(), encoding: 'utf8' });
  if (r.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  }
  return { stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  requireCurrentDist('These tests install the built package.');
  work = mkdtempSync(join(tmpdir(), 'cashback-install-'));
  const tarball = packInto(work);
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'new-user', private: true }));
  npmOutput = inProject('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--omit=peer',
    '--prefer-offline',
    tarball,
  ]);
}, 180_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('npm install cashback-engine into an empty project', () => {
  it(`prints no warning on Node ${process.versions.node}`, () => {
    expect(npmOutput.stderr).not.toMatch(/npm warn/i);
    expect(npmOutput.stdout).toMatch(/added \d+ packages?/);
  });

  it(`brings at most ${MAX_PACKAGES} packages and ${MAX_BYTES / 1e6} MB, and no vega package`, () => {
    const modules = join(project, 'node_modules');
    const packages = packagesIn(modules);
    const names = packages.map((dir) => dir.slice(modules.length + 1));
    expect(names.length, names.join(', ')).toBeLessThanOrEqual(MAX_PACKAGES);
    expect(names.filter((n) => /(^|\/)vega/.test(n))).toEqual([]);
    expect(diskUsage(modules)).toBeLessThanOrEqual(MAX_BYTES);
  });

  it('the installed cashback backtest --report writes the report of before, byte for byte', () => {
    const report = join(work, 'report.html');
    inProject(join(project, 'node_modules', '.bin', 'cashback'), [
      'backtest',
      ...writeReportInputs(work),
      '--report',
      report,
    ]);
    expect(sha256(readFileSync(report))).toBe(REPORT_SHA256);
  });

  it('cashback-engine/engine and cashback-engine/rules load under require and import', () => {
    const uses = `const partners = createMemoryPartners([{ application_id: 'bank-a' }]);
const engine = createEngine({ partners, store: createMemoryStore() });
const odd = defineOperator({ name: 'odd', factType: 'number', evaluate: (n) => n % 2 === 1 });
process.stdout.write(JSON.stringify([typeof engine.addTransactions, createOperatorRegistry([odd]).names.at(-1)]));
`;
    writeFileSync(
      join(project, 'entries.cjs'),
      `const { createEngine, createMemoryPartners, createMemoryStore } = require('cashback-engine/engine');
const { createOperatorRegistry, defineOperator } = require('cashback-engine/rules');
${uses}`,
    );
    writeFileSync(
      join(project, 'entries.mjs'),
      `import { createEngine, createMemoryPartners, createMemoryStore } from 'cashback-engine/engine';
import { createOperatorRegistry, defineOperator } from 'cashback-engine/rules';
${uses}`,
    );
    for (const file of ['entries.cjs', 'entries.mjs']) {
      expect(JSON.parse(inProject(process.execPath, [file]).stdout), file).toEqual([
        'function',
        'odd',
      ]);
    }
  });

  it('backtestReport under require writes the same bytes', () => {
    const args = writeReportInputs(work);
    const files = Object.fromEntries(
      args.flatMap((a, i) => (a.startsWith('--') ? [[a.slice(2), args[i + 1]]] : [])),
    );
    writeFileSync(
      join(project, 'report.cjs'),
      `const { readFileSync } = require('node:fs');
const { backtest } = require('cashback-engine');
const { backtestReport } = require('cashback-engine/files');
const files = ${JSON.stringify(files)};
const read = (name) => JSON.parse(readFileSync(files[name], 'utf8'));
backtest({
  baseline: read('baseline'),
  candidate: read('candidate'),
  customers: read('customers'),
  history: read('history'),
  transactions: read('transactions'),
}).then((result) => process.stdout.write(backtestReport(result)));
`,
    );
    const { stdout } = inProject(process.execPath, ['report.cjs']);
    expect(sha256(stdout)).toBe(REPORT_SHA256);
  });
});
