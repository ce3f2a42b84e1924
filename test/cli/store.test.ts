/**
 * The store of `cashback serve`, with real processes on 127.0.0.1: PGlite in the data directory
 * by default (payments survive a restart), `--memory` (they do not, and a warning comes before
 * the bound), a PostgreSQL server through `--database-url` (when DATABASE_URL names one; a fresh
 * database per test), SIGKILL under load (every batch answered 200 is listed whole after the
 * restart, none in part), SIGTERM with a batch in flight, and `cashback migrate`.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshServerDatabase, SKIP_SERVER, warnWhenSkipped } from '../postgres/_databases.js';
import {
  buildCli,
  coffee,
  customer,
  demoToken,
  killAll,
  paidIds,
  post,
  runCli,
  type Served,
  serve,
  stop,
} from './_served.js';

warnWhenSkipped('cashback serve --database-url and cashback migrate on a PostgreSQL server');

// Making a PGlite database takes seconds of CPU, many more on a busy machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** Clients posting at once, and the size of their batches, in the crash test. */
const CLIENTS = 8;
const BATCH = 25;
/** Answers 200 counted before the SIGKILL. */
const KILL_AFTER = 24;

let cli: { dir: string; remove: () => void };
/** A PGlite data directory migrated once, copied for tests that need not start from nothing. */
let template: string;
beforeAll(async () => {
  cli = await buildCli();
  template = tempDir();
  const r = await runCli(cli.dir, ['migrate', '--data-dir', template]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
/** Every data directory the tests made, removed at the end whatever happened. */
const madeDirs: string[] = [];
afterAll(() => {
  cli?.remove();
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});
afterEach(killAll);

const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'cashback-data-'));
  madeDirs.push(dir);
  return dir;
};

/** A data directory holding a migrated PGlite database (a copy of the template). */
function migratedDir(): string {
  const dir = tempDir();
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** Registers `c-1` and pays one coffee; the token. */
async function payOne(served: Served): Promise<string> {
  const token = await demoToken(served);
  expect((await post(served, token, '/customers/', [customer('c-1')])).status).toBe(200);
  const r = await post(served, token, '/transactions', [coffee('t-1', 'c-1')]);
  expect(r.status).toBe(200);
  expect(r.body[0].payments).toHaveLength(1);
  return token;
}

/**
 * 8 clients post batches of 25 paying transactions until 24 batches are answered 200, then the
 * server is killed with SIGKILL; restarted with the same arguments, every batch answered 200 is
 * listed whole, and every batch is listed whole or not at all.
 */
async function crashUnderLoad(args: readonly string[]): Promise<void> {
  const first = await serve(cli.dir, args);
  const token = await demoToken(first);
  expect((await post(first, token, '/customers/', [customer('c-load')])).status).toBe(200);
  const answered: string[][] = [];
  const sent: string[][] = [];
  let killed = false;
  const client = async (n: number) => {
    for (let i = 0; !killed; i++) {
      const ids = Array.from({ length: BATCH }, (_, j) => `k-${n}-${i}-${j}`);
      sent.push(ids);
      let status: number;
      try {
        status = (
          await post(
            first,
            token,
            '/transactions',
            ids.map((id) => coffee(id, 'c-load')),
          )
        ).status;
      } catch {
        return; // killed: no answer
      }
      expect(status).toBe(200);
      answered.push(ids);
      if (answered.length === KILL_AFTER && !killed) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
  expect((await first.exited).signal).toBe('SIGKILL');

  const second = await serve(cli.dir, args);
  const listed = new Set(await paidIds(second, await demoToken(second)));
  for (const ids of answered) expect(ids.filter((id) => !listed.has(id))).toEqual([]);
  for (const ids of sent) {
    const kept = ids.filter((id) => listed.has(id)).length;
    expect([0, BATCH], `batch ${ids[0]} stored in part`).toContain(kept);
  }
  expect(listed.size % BATCH).toBe(0);
  expect(listed.size).toBeGreaterThanOrEqual(KILL_AFTER * BATCH);
  expect((await stop(second)).code).toBe(0);
}

describe('cashback serve, with no store flag (PGlite in the data directory)', () => {
  it('keeps payments across a restart, in <data-dir>/db beside the token secret', async () => {
    const dataDir = tempDir();
    const first = await serve(cli.dir, ['--data-dir', dataDir]);
    expect(first.stdout()).toContain(`store         PGlite in ${join(dataDir, 'db')}`);
    expect(first.logs().find((l) => l.msg === 'store open')?.store).toContain('PGlite');
    await payOne(first);
    const exit = await stop(first);
    expect(exit.code).toBe(0);
    expect(first.stdout()).toContain(
      `payments stored: demo-bank=1 (kept in ${join(dataDir, 'db')})`,
    );

    const second = await serve(cli.dir, ['--data-dir', dataDir]);
    expect(await paidIds(second, await demoToken(second))).toEqual(['t-1']);
    expect((await stop(second)).code).toBe(0);
  }, 120_000);

  it('stores every batch answered 200 whole, and none in part, when killed with SIGKILL under load', async () => {
    await crashUnderLoad(['--data-dir', migratedDir()]);
  }, 120_000);

  it('answers a batch in flight at SIGTERM, waits for it, and has it whole after the restart', async () => {
    const dataDir = migratedDir();
    const first = await serve(cli.dir, ['--data-dir', dataDir]);
    const token = await demoToken(first);
    expect((await post(first, token, '/customers/', [customer('c-1')])).status).toBe(200);
    // A batch of 1,000 whose body is held back after its first half: in flight at the signal.
    const ids = Array.from({ length: 1000 }, (_, i) => `term-${i}`);
    const body = Buffer.from(JSON.stringify(ids.map((id) => coffee(id, 'c-1'))));
    const { hostname, port } = new URL(first.url);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((done) => socket.once('connect', () => done()));
    let received = '';
    socket.setEncoding('utf8').on('data', (d: string) => {
      received += d;
    });
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    socket.write(
      `POST /transactions HTTP/1.1\r\nHost: ${hostname}\r\nToken: ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, body.length / 2));
    first.child.kill('SIGTERM');
    await first.until(
      () => first.logs().some((l) => l.msg === 'stopping: requests in flight finish first'),
      'the shutdown to begin',
    );
    socket.write(body.subarray(body.length / 2));
    await ended;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.stdout()).toContain('payments stored: demo-bank=1000 (kept in');

    const second = await serve(cli.dir, ['--data-dir', dataDir]);
    const listed = await paidIds(second, await demoToken(second));
    expect(listed.sort()).toEqual([...ids].sort());
    expect((await stop(second)).code).toBe(0);
  });
});

describe('a PGlite data directory', () => {
  it('is used by one process at a time: a second serve, a migrate or `webhooks` exits 1 naming the first', async () => {
    const dataDir = migratedDir();
    const first = await serve(cli.dir, ['--data-dir', dataDir]);
    const pid = String(first.child.pid);
    const second = await runCli(cli.dir, ['serve', '--port', '0', '--data-dir', dataDir]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`is in use by process ${pid}`);
    const migrated = await runCli(cli.dir, ['migrate', '--data-dir', dataDir]);
    expect(migrated.code).toBe(1);
    expect(migrated.stderr).toContain(`is in use by process ${pid}`);
    const listed = await runCli(cli.dir, ['webhooks', 'dead-letters', '--data-dir', dataDir]);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain(`is in use by process ${pid}`);
    expect((await stop(first)).code).toBe(0);
    const after = await runCli(cli.dir, ['migrate', '--data-dir', dataDir]);
    expect(after.code, after.stderr).toBe(0);
    const listedAfter = await runCli(cli.dir, ['webhooks', 'dead-letters', '--data-dir', dataDir]);
    expect(listedAfter, listedAfter.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(existsSync(`${join(dataDir, 'db')}.lock`)).toBe(false);
  });
});

describe('cashback serve --memory', () => {
  it('forgets every payment at exit', async () => {
    const dataDir = tempDir();
    const first = await serve(cli.dir, ['--data-dir', dataDir, '--memory']);
    expect(first.stdout()).toMatch(/store {9}memory, at most \d+ records/);
    await payOne(first);
    await stop(first);
    expect(first.stdout()).toContain('payments stored: demo-bank=1 (memory store');

    const second = await serve(cli.dir, ['--data-dir', dataDir, '--memory']);
    expect(await paidIds(second, await demoToken(second))).toEqual([]);
    await stop(second);
  });

  it('logs a warning at 80% of --memory-max-records, then refuses writes past it with 503', async () => {
    const served = await serve(cli.dir, [
      '--data-dir',
      tempDir(),
      '--memory',
      '--memory-max-records',
      '20',
    ]);
    // The ten sample offers are 10 records; 6 customers make 16, 80% of 20.
    const token = await demoToken(served);
    const six = Array.from({ length: 6 }, (_, i) => customer(`c-${i}`));
    expect((await post(served, token, '/customers/', six)).status).toBe(200);
    const warning = () => served.logs().find((l) => l.level === 40);
    await served.until(() => warning() !== undefined, 'the warning');
    expect(warning()).toMatchObject({ records: 16, maxRecords: 20 });
    const more = Array.from({ length: 5 }, (_, i) => customer(`d-${i}`));
    const full = await post(served, token, '/customers/', more);
    expect(full.status).toBe(503);
    expect(full.body.error.code).toBe('storage_full');
    await stop(served);
  });

  it('is a usage error with --database-url, and --memory-max-records needs --memory', async () => {
    const both = await runCli(cli.dir, [
      'serve',
      '--memory',
      '--database-url',
      'postgres://u:pw@127.0.0.1:1/db',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(
      'cashback: --memory and --database-url choose two stores: give one of them\n',
    );
    const bound = await runCli(cli.dir, ['serve', '--memory-max-records', '10']);
    expect(bound.code).toBe(2);
    expect(bound.stderr).toMatch(/needs --memory/);
  });
});

describe('cashback serve --database-url', () => {
  it('exits 1 when the server cannot be reached, naming it without its password', async () => {
    const r = await runCli(cli.dir, [
      'serve',
      '--port',
      '0',
      '--data-dir',
      tempDir(),
      '--database-url',
      'postgres://app:s3cr3t-pw@127.0.0.1:1/cashback?password=s3cr3t-pw',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('PostgreSQL at postgres://app@127.0.0.1:1/cashback');
    expect(r.stderr + r.stdout).not.toContain('s3cr3t-pw');
  });

  it.skipIf(SKIP_SERVER)(
    'keeps payments across a restart, also when DATABASE_URL gives the server',
    async () => {
      const db = await freshServerDatabase();
      try {
        const first = await serve(cli.dir, ['--data-dir', tempDir(), '--database-url', db.url]);
        expect(first.stdout()).toContain('store         PostgreSQL at postgres://');
        await payOne(first);
        expect((await stop(first)).code).toBe(0);
        const second = await serve(cli.dir, ['--data-dir', tempDir()], { DATABASE_URL: db.url });
        expect(await paidIds(second, await demoToken(second))).toEqual(['t-1']);
        expect((await stop(second)).code).toBe(0);
      } finally {
        await db.drop();
      }
    },
  );

  it.skipIf(SKIP_SERVER)(
    'stores every batch answered 200 whole, and none in part, when killed with SIGKILL under load',
    async () => {
      const db = await freshServerDatabase();
      try {
        await crashUnderLoad(['--data-dir', tempDir(), '--database-url', db.url]);
      } finally {
        await db.drop();
      }
    },
    120_000,
  );
});

describe('cashback migrate', () => {
  it('applies every migration to an empty PGlite data directory, then nothing', async () => {
    const dataDir = tempDir();
    const first = await runCli(cli.dir, ['migrate', '--data-dir', dataDir]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(
      `cashback migrate: applied 0001_initial, 0002_deliveries, 0003_returns, 0004_activations, 0005_funding, 0006_return_totals, 0007_ledger, 0008_channel, 0009_confirmed_days, 0010_payment_days to PGlite in ${join(dataDir, 'db')}; schema version 10\n`,
    );
    const again = await runCli(cli.dir, ['migrate', '--data-dir', dataDir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `cashback migrate: nothing to apply; PGlite in ${join(dataDir, 'db')} is at schema version 10\n`,
    );
  });

  it.skipIf(SKIP_SERVER)(
    'applies every migration to an empty server database, then nothing',
    async () => {
      const db = await freshServerDatabase();
      try {
        const first = await runCli(cli.dir, ['migrate', '--database-url', db.url]);
        expect(first.code, first.stderr).toBe(0);
        expect(first.stdout).toMatch(
          /^cashback migrate: applied 0001_initial, 0002_deliveries, 0003_returns, 0004_activations, 0005_funding, 0006_return_totals, 0007_ledger, 0008_channel, 0009_confirmed_days, 0010_payment_days to PostgreSQL at postgres:\/\/\S+; schema version 10\n$/,
        );
        const again = await runCli(cli.dir, ['migrate'], { DATABASE_URL: db.url });
        expect(again.code).toBe(0);
        expect(again.stdout).toMatch(/^cashback migrate: nothing to apply; PostgreSQL at /);
      } finally {
        await db.drop();
      }
    },
  );

  it('is a usage error with both --database-url and --data-dir', async () => {
    const r = await runCli(cli.dir, [
      'migrate',
      '--database-url',
      'postgres://u@127.0.0.1:1/db',
      '--data-dir',
      tempDir(),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give one of them/);
  });
});
