/**
 * The parallel driver of `cashback replay --workers N` does nothing when it is imported
 * (package.json says `"sideEffects": false`): a worker thread serves a partition only once
 * `servePartition` is called. Checked on the built command (`buildCli`), whose worker threads
 * import the module that holds `servePartition` from where it was built.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePartition } from '../../../src/files/parallel/partitionWorker.js';
import { type BuiltCli, buildCli } from '../../cli/_buildCli.js';

let built: BuiltCli | undefined;
/** The built module that exports `servePartition`. */
let workerModule: string;

beforeAll(async () => {
  built = await buildCli();
  const dist = join(built.dir, 'dist');
  const holders = readdirSync(dist).filter(
    (f) =>
      f.endsWith('.js') &&
      /export \{[^}]*\bservePartition\b/.test(readFileSync(join(dist, f), 'utf8')),
  );
  expect(holders).toHaveLength(1);
  workerModule = pathToFileURL(join(dist, holders[0] as string)).href;
}, 60_000);

afterAll(() => built?.remove());

/** Runs `code` in a worker thread; resolves with its exit code and the messages it posted. */
function runWorker(
  code: string,
  send: readonly unknown[] = [],
): Promise<{ code: number; messages: unknown[] }> {
  return new Promise((resolve, reject) => {
    const messages: unknown[] = [];
    // The flag that made a worker thread serve a partition when the module was imported.
    const worker = new Worker(code, { eval: true, workerData: { cashbackReplayWorker: true } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ code: -1, messages });
    }, 10_000);
    worker.on('message', (m) => {
      messages.push(m);
      void worker.terminate();
    });
    worker.on('error', reject);
    worker.on('exit', (exitCode) => {
      clearTimeout(timer);
      resolve({ code: exitCode, messages });
    });
    for (const m of send) worker.postMessage(m);
  });
}

describe('the parallel replay', () => {
  it('serves no partition in a worker thread that only imports its module', async () => {
    const run = await runWorker(`import(${JSON.stringify(workerModule)});`);
    // It ends by itself: nothing listens for messages.
    expect(run).toEqual({ code: 0, messages: [] });
  });

  it('serves a partition once servePartition is called', async () => {
    const run = await runWorker(
      `import(${JSON.stringify(workerModule)}).then((m) => m.servePartition());`,
      [{ type: 'decide', block: 0, duplicates: new Int32Array(0), indices: new Int32Array(0) }],
    );
    expect(run.messages).toEqual([
      { type: 'failed', name: 'Error', message: 'the worker has no partition' },
    ]);
  });

  it('refuses to serve outside a worker thread', () => {
    expect(() => servePartition()).toThrow(new Error('servePartition runs in a worker thread'));
  });
});
