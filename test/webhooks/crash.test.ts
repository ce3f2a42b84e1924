/**
 * Crashes: a process killed with SIGKILL after its commit and before delivery, and after sending
 * but before recording the success. After a restart every committed event is delivered at least
 * once; the event of a unit the kill cut short is never sent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPgliteStore } from '../../src/store/postgres/index.js';
import { createWebhookDispatcher, generateWebhookSecret } from '../../src/webhooks/index.js';
import { startReceiver } from './_receiver.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = generateWebhookSecret();
let childFile = '';
let outDir = '';
let dataDir = '';

beforeAll(async () => {
  const cache = join(root, 'node_modules', '.cache', 'cashback-engine-tests');
  mkdirSync(cache, { recursive: true });
  outDir = mkdtempSync(join(cache, 'webhook-child-'));
  await build({
    entry: { child: join(root, 'test/webhooks/_crashChild.ts') },
    outDir,
    format: ['esm'],
    target: 'node22',
    dts: false,
    silent: true,
    config: false,
    external: ['pg', '@electric-sql/pglite', 'standardwebhooks'],
  });
  childFile = join(outDir, 'child.js');
  dataDir = mkdtempSync(join(tmpdir(), 'cashback-crash-'));
}, 60_000);

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the child and kills it with SIGKILL once `when` says so; `done` resolves when it is gone. */
function runUntil(
  args: string[],
  when: (stdout: string) => boolean,
): { child: ChildProcess; done: Promise<void> } {
  const child: ChildProcess = spawn(process.execPath, [childFile, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (c) => {
    err += c;
  });
  child.stdout?.on('data', (c) => {
    out += c;
    if (when(out)) child.kill('SIGKILL');
  });
  const done = new Promise<void>((resolve, reject) =>
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}: ${err}`)),
    ),
  );
  return { child, done };
}

test('after SIGKILL past the commit and SIGKILL past the send, a restart delivers every committed event and never the rolled-back one', async () => {
  await runUntil(['commit', dataDir, 'e1,e2,e3', SECRET], (out) => out.includes('inside\n')).done;
  // The receiver holds the first request unanswered; the child is killed once it arrives.
  const receiver = await startReceiver(() => ({ status: 200, delayMs: 60_000 }));
  const delivering = runUntil(['deliver', dataDir, receiver.url, SECRET], () => false);
  const started = Date.now();
  while (receiver.received.length === 0 && Date.now() - started < 60_000) {
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(receiver.received.length).toBeGreaterThan(0);
  // Kill the delivering child: the attempt was sent and never recorded.
  delivering.child.kill('SIGKILL');
  await delivering.done;
  const sentBeforeCrash = receiver.received.map((r) => r.headers['webhook-id']);
  receiver.answer(() => ({ status: 200 }));

  const store = await createPgliteStore({ dataDir });
  try {
    // Leases of the killed dispatcher have passed on this clock.
    const dispatcher = createWebhookDispatcher({
      store,
      partners: [{ application_id: 'bank-a', webhook_url: receiver.url, webhook_secret: SECRET }],
      allowLocalUrls: true,
      clock: () => new Date(Date.now() + 3_600_000),
    });
    await dispatcher.runOnce();
    const after = receiver.received
      .slice(sentBeforeCrash.length)
      .map((r) => r.headers['webhook-id']);
    expect(new Set([...sentBeforeCrash, ...after])).toEqual(new Set(['e1', 'e2', 'e3']));
    expect(new Set(after)).toEqual(new Set(['e1', 'e2', 'e3']));
    expect(receiver.received.map((r) => r.headers['webhook-id'])).not.toContain('rolled-back');
    expect(await dispatcher.runOnce()).toBe(0);
  } finally {
    await store.close?.();
    await receiver.close();
  }
}, 120_000);
