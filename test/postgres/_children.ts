/**
 * Runs `_child.ts` in child processes: built once per test file with tsup (what the package
 * build uses) into node_modules/.cache, so the children resolve `pg` as the package would.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import type { ChildJob, ChildResult } from './_child.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Builds the child script; returns its file and how to remove it. */
export async function buildChild(): Promise<{ file: string; remove: () => void }> {
  const cache = join(root, 'node_modules', '.cache', 'cashback-engine-tests');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, 'pg-child-'));
  await build({
    entry: { child: join(root, 'test/postgres/_child.ts') },
    outDir,
    format: ['esm'],
    target: 'node20',
    dts: false,
    sourcemap: false,
    silent: true,
    config: false,
    external: ['pg', '@electric-sql/pglite'],
  });
  return {
    file: join(outDir, 'child.js'),
    remove: () => rmSync(outDir, { recursive: true, force: true }),
  };
}

/**
 * Starts one child per job, waits until every one is ready, tells them all to go at once, and
 * returns their results in job order. Rejects with a child's stderr when one fails.
 */
export async function runChildren(file: string, jobs: readonly ChildJob[]): Promise<ChildResult[]> {
  const children = jobs.map((job) => {
    const child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write(`${JSON.stringify(job)}\n`);
    let stdout = '';
    let stderr = '';
    let onReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      onReady = resolve;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.startsWith('ready\n')) onReady();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const done = new Promise<ChildResult>((resolve, reject) => {
      child.on('exit', (code) => {
        if (code !== 0) {
          reject(new Error(`child exited with ${code}: ${stderr}`));
          return;
        }
        resolve(JSON.parse(stdout.slice('ready\n'.length)) as ChildResult);
      });
    });
    return { child, ready: Promise.race([ready, done.then(() => undefined)]), done };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.end('go\n');
  return Promise.all(children.map((c) => c.done));
}
