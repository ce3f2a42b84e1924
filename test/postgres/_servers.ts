/**
 * Several `cashback serve` processes on one PostgreSQL database, as a deployment behind a load
 * balancer runs them (docs/postgres.md, Several instances): the built command (test/cli/_served.ts
 * builds it), one offers file, one partners file and one token secret, so a token from one
 * process is good on every other.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnv, runCli, type Watched, watch } from '../cli/_served.js';

/** A partner of the partners file. */
export interface Partner {
  readonly application_id: string;
  readonly application_key: string;
}

/** The running processes. */
export interface Servers {
  /** Their base URLs, `http://127.0.0.1:<port>`. */
  readonly urls: readonly string[];
  /** A token of `partner`, good on every process. */
  token(partner: Partner): Promise<string>;
  /** Stops every process with SIGTERM; rejects naming one that did not exit 0. */
  stop(): Promise<void>;
  /** Kills whatever still runs and removes the files (for `afterAll`, whatever happened). */
  kill(): void;
}

const LISTENING = /listens on (http:\/\/\S+)/;

/**
 * Migrates the database with `cashback migrate`, then starts `count` processes of `cashback
 * serve --database-url`: the first alone (it loads the offers, so the others find them current),
 * then the rest at once.
 * @param cliDir - a folder holding the built command (`buildCli()`)
 * @param url - the database
 * @param offers - the offers file's content
 * @param partners - the partners file's content
 * @param count - how many processes
 * @param beforeServe - runs after the migration, before the first process starts
 * @returns the processes
 */
export async function startServers(
  cliDir: string,
  url: string,
  offers: readonly unknown[],
  partners: readonly Partner[],
  count: number,
  beforeServe: () => Promise<void> = async () => {},
): Promise<Servers> {
  const dir = mkdtempSync(join(tmpdir(), 'cashback-servers-'));
  const children: { child: ChildProcess; watched: Watched }[] = [];
  const kill = () => {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    writeFileSync(join(dir, 'offers.json'), JSON.stringify(offers));
    writeFileSync(join(dir, 'partners.json'), JSON.stringify(partners));
    const env = { CASHBACK_TOKEN_SECRET: randomBytes(32).toString('base64url') };
    const migrated = await runCli(cliDir, ['migrate', '--database-url', url]);
    if (migrated.code !== 0) throw new Error(`cashback migrate failed:\n${migrated.stderr}`);
    await beforeServe();
    const start = async (): Promise<string> => {
      const args = ['dist/cli.js', 'serve', '--port', '0', '--database-url', url];
      args.push('--offers', join(dir, 'offers.json'), '--partners', join(dir, 'partners.json'));
      args.push('--data-dir', dir, '--log-level', 'warn');
      const child = spawn(process.execPath, args, {
        cwd: cliDir,
        env: childEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const watched = watch(child);
      children.push({ child, watched });
      await watched.until((out) => LISTENING.test(out), 'the listening line', 60_000);
      return LISTENING.exec(watched.stdout())?.[1] as string;
    };
    const first = await start();
    const rest = await Promise.all(Array.from({ length: count - 1 }, start));
    return {
      urls: [first, ...rest],
      token: (partner) => tokenOf(first, partner),
      stop: async () => {
        for (const { child } of children) child.kill('SIGTERM');
        for (const { watched } of children) {
          const exit = await watched.exited;
          if (exit.code !== 0) {
            throw new Error(`a server exited ${exit.code ?? exit.signal}:\n${watched.stderr()}`);
          }
        }
      },
      kill,
    };
  } catch (e) {
    kill();
    throw e;
  }
}

/** A token of `partner` from `GET /get-token`. */
async function tokenOf(url: string, partner: Partner): Promise<string> {
  const r = await fetch(`${url}/get-token`, {
    headers: { applicationId: partner.application_id, applicationKey: partner.application_key },
  });
  if (r.status !== 200) throw new Error(`get-token answered ${r.status}: ${await r.text()}`);
  return ((await r.json()) as { Token: string }).Token;
}
