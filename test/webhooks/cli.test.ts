/**
 * `cashback webhooks dead-letters` and `redeliver` as users run them: the command, built once
 * with tsup, in a child process over the PGlite database of a data directory.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { pgliteDirOf } from '../../src/cli/webhooks.js';
import { createPgliteStore } from '../../src/store/postgres/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let outDir = '';
let dataDir = '';
const T = 1_750_000_000_000;

beforeAll(async () => {
  const cache = join(root, 'node_modules', '.cache', 'cashback-engine-tests');
  mkdirSync(cache, { recursive: true });
  outDir = mkdtempSync(join(cache, 'webhooks-cli-'));
  await build({
    entry: { cli: join(root, 'src/cli/index.ts') },
    outDir,
    format: ['esm'],
    target: 'node20',
    dts: false,
    silent: true,
    config: false,
    external: ['pg', '@electric-sql/pglite', 'standardwebhooks'],
  });
  dataDir = mkdtempSync(join(tmpdir(), 'cashback-cli-'));
  const store = await createPgliteStore({ dataDir: pgliteDirOf(dataDir) });
  try {
    const event = (id: string) => ({
      id,
      type: 'offer.updated' as const,
      payload: { id },
      created_at: '2025-06-01T12:00:00.000Z',
    });
    await store.outbox.add('bank-a', [event('e1'), event('e2')]);
    await store.outbox.add('bank-b', [event('e3')]);
    const d = store.deliveries;
    if (d === undefined) throw new Error('no deliveries');
    const claims = await d.claim({
      partners: ['bank-a', 'bank-b'],
      now: T,
      leaseUntil: T + 1,
      lease: 'l',
      limit: 10,
    });
    for (const c of claims) await d.deadLetter(c, { now: T, error: `HTTP 500 for ${c.id}` });
  } finally {
    await store.close?.();
  }
}, 120_000);

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** `cashback webhooks <args> --data-dir <dir>`, to its end. */
function webhooksIn(
  dir: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      [join(outDir, 'cli.js'), 'webhooks', ...args, '--data-dir', dir],
      { timeout: 60_000, env: { ...process.env, DATABASE_URL: '' } },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    ),
  );
}

const cashback = (...args: string[]) => webhooksIn(dataDir, args);

test('dead-letters lists the dead letters as JSON lines, redeliver makes the named ones and then all pending', async () => {
  const listed = await cashback('dead-letters');
  expect(listed.code).toBe(0);
  expect(
    listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  ).toEqual([
    {
      event_id: 'e1',
      partner: 'bank-a',
      type: 'offer.updated',
      sequence: 1,
      attempts: 1,
      dead_at: new Date(T).toISOString(),
      error: 'HTTP 500 for e1',
    },
    {
      event_id: 'e2',
      partner: 'bank-a',
      type: 'offer.updated',
      sequence: 2,
      attempts: 1,
      dead_at: new Date(T).toISOString(),
      error: 'HTTP 500 for e2',
    },
    {
      event_id: 'e3',
      partner: 'bank-b',
      type: 'offer.updated',
      sequence: 1,
      attempts: 1,
      dead_at: new Date(T).toISOString(),
      error: 'HTTP 500 for e3',
    },
  ]);
  expect((await cashback('dead-letters', '--partner', 'bank-b')).stdout).toContain('"e3"');

  const one = await cashback('redeliver', 'e2', 'nope');
  expect(one.stdout).toBe('e2\n');
  expect(one.stderr).toContain('not dead letters: nope');
  expect(one.code).toBe(1);
  expect((await cashback('redeliver')).code).toBe(2);

  const all = await cashback('redeliver', '--all');
  expect(all.code).toBe(0);
  expect(all.stdout.trim().split('\n').sort()).toEqual(['e1', 'e3']);
  expect((await cashback('dead-letters')).stdout).toBe('');
}, 120_000);

test('a data directory with no database is refused, and nothing is created in it', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'cashback-cli-empty-'));
  try {
    const r = await webhooksIn(empty, ['dead-letters']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no PGlite database in ${pgliteDirOf(empty)}`);
    expect(existsSync(pgliteDirOf(empty))).toBe(false);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}, 60_000);
