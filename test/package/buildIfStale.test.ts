/**
 * scripts/build-if-stale.mjs, which `npm start` and `npm run demo` run first: it builds dist/
 * when it is missing or older than src/, says so, and skips the build when dist/ is current. Run
 * as a real process in a small package root of its own (one source file, a one-entry tsup
 * config, this repository's node_modules linked in).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts', 'build-if-stale.mjs');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cashback-build-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'index.ts'), 'export const answer: number = 42;\n');
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'p', type: 'module', exports: { '.': './dist/index.js' } }),
  );
  writeFileSync(
    join(dir, 'tsup.config.json'),
    JSON.stringify({ entry: { index: 'src/index.ts' }, format: ['esm'] }),
  );
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the script in the package root; its exit status and what it printed. */
function buildIfStale(...args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [script, ...args], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

/** Sets a file's modification time, `seconds` from now. */
function touch(path: string, seconds: number): void {
  const t = new Date(Date.now() + seconds * 1000);
  utimesSync(join(dir, path), t, t);
}

describe('build-if-stale', () => {
  it('builds a missing dist/ and says why', () => {
    const r = buildIfStale();
    expect(r).toMatchObject({ status: 0 });
    expect(r.stderr).toContain('Building dist/ (dist/index.js does not exist)');
    const built = execFileSync(process.execPath, ['--input-type=module', '-e', "import('p')"], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(built).toBe('');
    expect(readFileSync(join(dir, 'dist', 'index.js'), 'utf8')).toContain('42');
  });

  it('skips the build when dist/ is newer than every source file', () => {
    buildIfStale();
    touch('dist/index.js', 10);
    const r = buildIfStale();
    expect(r).toEqual({ status: 0, stderr: 'dist/ is current: no build.\n' });
  });

  it('rebuilds when a source file changed after the build, naming it', () => {
    buildIfStale();
    writeFileSync(join(dir, 'src', 'index.ts'), 'export const answer: number = 43;\n');
    touch('src/index.ts', 10);
    const r = buildIfStale();
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('Building dist/ (src/index.ts is newer than dist/index.js)');
    expect(readFileSync(join(dir, 'dist', 'index.js'), 'utf8')).toContain('43');
  });

  it('with --check, fails naming the stale file and builds nothing', () => {
    const r = buildIfStale('--check');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'dist/ is not current (dist/index.js does not exist): run `npm run build`\n',
    );
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });

  it.each(['start', 'demo'])('npm run %s runs it before starting', (name) => {
    expect(pkg.scripts[name]).toMatch(/^node scripts\/build-if-stale\.mjs && /);
  });
});
