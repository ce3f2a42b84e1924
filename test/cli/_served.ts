/**
 * `cashback serve` and `cashback migrate` as child processes, for the tests of the store choice:
 * the `cli` entry is built once per file into a temporary folder (never the repository's dist/,
 * which other test files read), and every process runs there with the environment's store
 * variables removed unless a test gives them.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildCliInto, makePackageRoot } from './_buildCli.js';

// biome-ignore lint/suspicious/noExplicitAny: tests index into arbitrary JSON answers
export type Json = any;

/** A folder with the built command (`dist/cli.js`), the sample offers and node_modules. */
export async function buildCli(): Promise<{ dir: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'cashback-cli-store-'));
  makePackageRoot(dir);
  await buildCliInto(dir);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** This process's environment without the variables the command reads, plus `extra`. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['CASHBACK_TOKEN_SECRET', 'CASHBACK_DATA_DIR', 'DATABASE_URL']) {
    delete env[name];
  }
  return { ...env, ...extra, PATH: `${dirname(process.execPath)}:${env.PATH ?? ''}` };
}

/** What a child process printed and how it ended, watched as it runs. */
export interface Watched {
  /** Everything it printed so far. */
  stdout(): string;
  stderr(): string;
  /** Its pino log lines so far, parsed. */
  logs(): Json[];
  /** Resolves when it has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once `test(stdout, stderr)` holds; rejects if it exits first or after `ms`. */
  until(test: (stdout: string, stderr: string) => boolean, what: string, ms: number): Promise<void>;
}

/** Collects a started child's output and exit, for `until` to wait on. */
export function watch(child: ChildProcess): Watched {
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const poke = () => {
    for (const w of waiters) w();
  };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    poke();
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    poke();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('close', (code, signal) => {
      done({ code, signal });
      poke();
    }),
  );
  return {
    stdout: () => out,
    stderr: () => err,
    logs: () =>
      err
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Json),
    exited,
    until: (test, what, ms) =>
      new Promise<void>((done, fail) => {
        const timer = setTimeout(() => finish(new Error(`timed out waiting for ${what}`)), ms);
        const finish = (error?: Error) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error === undefined) done();
          else fail(new Error(`${error.message}\n--- stdout\n${out}\n--- stderr\n${err}`));
        };
        const check = () => {
          if (test(out, err)) finish();
          else if (child.exitCode !== null || child.signalCode !== null) {
            finish(
              new Error(`the server exited (${child.exitCode ?? child.signalCode}) before ${what}`),
            );
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

/** A running `cashback serve`. */
export interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  stdout(): string;
  stderr(): string;
  /** Its pino log lines so far, parsed. */
  logs(): Json[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once `test()` holds; rejects when the process exits first or after 60 s. */
  until(test: () => boolean, what: string): Promise<void>;
}

const children = new Set<ChildProcess>();

/** Kills every server still running (for `afterEach`). */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children.clear();
}

/** Starts `node dist/cli.js serve --port 0 --offers <sample> <args>` and waits for its address. */
export async function serve(
  dir: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Served> {
  const child = spawn(
    process.execPath,
    ['dist/cli.js', 'serve', '--port', '0', '--offers', 'docs/examples/offers.json', ...args],
    { cwd: dir, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  const watched = watch(child);
  const listening = /listens on (http:\/\/\S+)/;
  await watched.until((out) => listening.test(out), 'the listening line', 60_000);
  return {
    child,
    url: listening.exec(watched.stdout())?.[1] as string,
    ...watched,
    until: (test, what) => watched.until(test, what, 60_000),
  };
}

/** Stops a server with SIGTERM and returns its exit. */
export async function stop(served: Served) {
  served.child.kill('SIGTERM');
  return served.exited;
}

/** A finished run of a process: its exit code (null when killed) and output. */
export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node <args>` in `cwd` to its end, with `childEnv(env)`, killed after `ms`; never rejects.
 */
export function runNode(
  cwd: string,
  args: readonly string[],
  env: Record<string, string>,
  ms: number,
): Promise<Finished> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      args,
      { cwd, env: childEnv(env), timeout: ms },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** Runs `node dist/cli.js <args>` to its end. */
export function runCli(
  dir: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Finished> {
  return runNode(dir, ['dist/cli.js', ...args], env, 60_000);
}

/** The demo partner's token, from the key a started server printed. */
export async function demoToken(served: Served): Promise<string> {
  const key = /^APP_KEY='([^']+)'$/m.exec(served.stdout())?.[1] as string;
  const r = await fetch(`${served.url}/get-token`, {
    headers: { applicationId: 'demo-bank', applicationKey: key },
  });
  if (r.status !== 200) throw new Error(`get-token answered ${r.status}`);
  return ((await r.json()) as Json).Token as string;
}

/** POSTs JSON with the token; the status and the parsed body. */
export async function post(
  served: Served,
  token: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Json }> {
  const r = await fetch(`${served.url}${path}`, {
    method: 'POST',
    headers: { Token: token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: JSON.parse(await r.text()) };
}

/** A customer of the sample offers' age band, in Paris. */
export const customer = (id: string) => ({
  customer_id: id,
  birthday: '1995-04-12',
  gender: 'F',
  location: { country: 'FR', city: 'Paris' },
});

/** A transaction that earns cashback under the sample offers (Coffee House, 2025). */
export const coffee = (id: string, customerId: string) => ({
  transaction_id: id,
  description: 'coffee',
  customer_id: customerId,
  date: '2025-07-01T08:30:00.000',
  amount: 10,
  merchant: { id: 'm-94', name: 'Coffee House', category_code: '5999' },
  location: { country: 'FR', city: 'Paris' },
});

/** Every transaction id the demo partner has a payment for, page after page. */
export async function paidIds(served: Served, token: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const q = new URLSearchParams({
      date_from: '2000-01-01',
      date_to: '2099-12-31',
      page_size: '1000',
      current_page: String(page),
    });
    const r = await fetch(`${served.url}/cashback-payments?${q}`, { headers: { Token: token } });
    if (r.status !== 200) throw new Error(`cashback-payments answered ${r.status}`);
    const body = (await r.json()) as Json;
    for (const p of body.transactions) ids.push(p.transaction_id as string);
    if (ids.length >= body.total_count || body.transactions.length === 0) return ids;
  }
}
