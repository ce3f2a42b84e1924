/**
 * `cashback serve` as users run it: started as a child process with the command `npm start`
 * runs, driven through the curl walk-through it prints, stopped with SIGTERM under load (every
 * request answered 200 was stored), plus bad inputs, the token secret, SIGHUP and a partners file.
 *
 * How the server is started. The README says `npm install && npm start`. The main test runs
 * exactly that command, `npm start -- --port 0`, in a temporary package root (a copy of
 * package.json, the sample offers and a link to node_modules): npm runs the start script, whose
 * `exec node …` lets the SIGTERM that npm forwards reach the server (without `exec`, `sh` would
 * take the signal and die, leaving the server running). There, the script's tsup step reads a
 * tsup config of the root that builds only the `cli` entry, ESM, without declarations: building
 * the repository's dist/ here would race the other test files that read it (tsup empties dist/
 * first), and the full build with declarations takes tens of seconds. The other tests spawn the
 * start script's `node …` command directly, read from package.json, on a build made once with
 * the same options. Nothing is written inside the repository: data directories and files are
 * temporary too.
 */

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../src/webhooks/index.js';
import { checkAgainstOpenApi } from '../http/_harness.js';
import { cliOnlyOptions, makePackageRoot } from './_buildCli.js';
import { childEnv, type Finished, type Json, runNode, type Watched, watch } from './_served.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};

/** Markers and key lines of the printed output (src/cli/serve.ts, src/cli/walkthrough.ts). */
const LISTENING = /listens on (http:\/\/\S+)/;
const WALKTHROUGH = /^# ---- walk-through[^\n]*\n[\s\S]*?^# ---- end of walk-through ----$/m;
const STOPPED = /stopped; payments stored: (.*) \(/;

/** Bounds of the load run under SIGTERM. */
const LOOPS = 6;
const BATCH = 20;
const MAX_BATCHES_PER_LOOP = 100;
const SIGTERM_AFTER_ANSWERS = 24;

let work: string;
/** The private package root: package.json, dist/ (the cli entry), docs/examples, node_modules. */
let pkgRoot: string;
/** The start script's command, without `node`: `dist/cli.js serve --offers …`. */
let startArgs: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cashback-cli-'));
  pkgRoot = join(work, 'pkg');
  makePackageRoot(pkgRoot);
  mkdirSync(join(pkgRoot, 'scripts'));
  copyFileSync(
    join(root, 'scripts', 'build-if-stale.mjs'),
    join(pkgRoot, 'scripts', 'build-if-stale.mjs'),
  );

  const steps = (pkg.scripts.start ?? '').split('&&').map((s) => s.trim());
  const command = (steps.at(-1) ?? '').split(/\s+/);
  expect(steps[0], 'the start script builds first').toBe('node scripts/build-if-stale.mjs');
  expect(command.slice(0, 2), 'the start script execs node').toEqual(['exec', 'node']);
  startArgs = command.slice(2);
  expect(startArgs[0]).toBe('dist/cli.js');

  const cliOnly = cliOnlyOptions(pkgRoot);
  // The tsup config `npm start` finds in the package root, and the build for direct starts.
  writeFileSync(join(pkgRoot, 'tsup.config.json'), JSON.stringify(cliOnly));
  await build({ ...cliOnly, silent: true, config: false });
}, 60_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** A started `cashback serve`; `until` waits 15 s unless given `ms`. */
interface Served extends Omit<Watched, 'until'> {
  readonly child: ChildProcess;
  until(
    test: (stdout: string, stderr: string) => boolean,
    what: string,
    ms?: number,
  ): Promise<void>;
}

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children.clear();
});

/**
 * Starts `node <args>` (or, with `npm`, `npm start -- <args>`) in the private package root;
 * with `fileLimit`, through bash with `ulimit -n <fileLimit>` first.
 */
function start(
  args: readonly string[],
  env: Record<string, string> = {},
  npm = false,
  fileLimit?: number,
): Served {
  const quoted = [process.execPath, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`);
  const [file, argv] = npm
    ? ['npm', ['start', '--', ...args]]
    : fileLimit !== undefined
      ? ['bash', ['-c', `ulimit -n ${fileLimit} && exec ${quoted.join(' ')}`]]
      : [process.execPath, args];
  const child = spawn(file, argv, {
    cwd: pkgRoot,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const watched = watch(child);
  return {
    child,
    ...watched,
    until: (test, what, ms = 15_000) => watched.until(test, what, ms),
  };
}

/** Starts the server and waits for its address. */
async function startServing(
  args: readonly string[],
  env: Record<string, string> = {},
  npm = false,
  fileLimit?: number,
) {
  const served = start(args, env, npm, fileLimit);
  // A first start makes the PGlite database: seconds on a busy machine.
  await served.until((out) => LISTENING.test(out), 'the listening line', 60_000);
  const url = LISTENING.exec(served.stdout())?.[1] as string;
  return { served, url };
}

/** Starts the start script's command on port 0, in memory, with a temporary data directory. */
const startInMemory = () =>
  startServing([...startArgs, '--port', '0', '--memory', '--data-dir', tempDir('data')]);

/** Runs `node <args>` to its end; for commands that are expected to fail at once. */
function runToEnd(args: readonly string[], env: Record<string, string> = {}): Promise<Finished> {
  return runNode(pkgRoot, args, env, 15_000);
}

/** A fresh temporary directory. */
const tempDir = (name: string) => mkdtempSync(join(work, `${name}-`));

/** A curl call the walk-through made, as the wrapping `curl` function recorded it. */
interface CurlCall {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly body: Json;
}

/**
 * Runs a printed walk-through in bash, with `curl` wrapped so that every call's arguments,
 * status and body are kept (the wrapper's `-w` comes last, so it wins over the walk-through's).
 */
async function runWalkthrough(
  script: string,
  env: Record<string, string> = {},
): Promise<CurlCall[]> {
  const calls = tempDir('calls');
  const wrapper = `set -euo pipefail
curl() {
  echo >> "$CALLS/count"
  local n
  n=$(($(wc -l < "$CALLS/count")))
  printf '%s\\n' "$@" > "$CALLS/$n.args"
  command curl "$@" -o "$CALLS/$n.body" -w '%{http_code}' > "$CALLS/$n.status"
  cat "$CALLS/$n.body"
}
`;
  const file = join(calls, 'walkthrough.sh');
  writeFileSync(file, `${wrapper}${script}\n`);
  const result = await new Promise<{ code: number | null; out: string; err: string }>((done) =>
    execFile(
      'bash',
      [file],
      { env: childEnv({ ...env, CALLS: calls }), timeout: 20_000 },
      (error, out, err) =>
        done({ code: error === null ? 0 : (error.code as number | null), out, err }),
    ),
  );
  expect(result.code, `the walk-through failed:\n${result.out}\n${result.err}`).toBe(0);
  const count = readdirSync(calls).filter((f) => f.endsWith('.status')).length;
  return Array.from({ length: count }, (_, i) => {
    const args = readFileSync(join(calls, `${i + 1}.args`), 'utf8').split('\n');
    const url = args.find((a) => a.startsWith('http')) as string;
    const x = args.indexOf('-X');
    return {
      method: x === -1 ? 'GET' : (args[x + 1] as string),
      path: new URL(url).pathname,
      status: Number(readFileSync(join(calls, `${i + 1}.status`), 'utf8')),
      body: JSON.parse(readFileSync(join(calls, `${i + 1}.body`), 'utf8')),
    };
  });
}

/** What became of one request of the load. */
type Outcome =
  | { readonly kind: 'answered'; readonly status: number; readonly body: Json }
  /** No response at all: the connection was refused or closed before any answer. */
  | { readonly kind: 'unanswered'; readonly code: string }
  /** Response headers came, then the body failed: a cut mid-response. */
  | { readonly kind: 'cut'; readonly message: string };

/** Connection failures that mean "no answer, and nothing was processed". */
const NO_ANSWER = ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'];

async function postOnce(url: string, token: string, body: unknown): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(`${url}/transactions`, {
      method: 'POST',
      headers: { Token: token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { kind: 'unanswered', code: cause?.code ?? cause?.message ?? String(err) };
  }
  try {
    return { kind: 'answered', status: res.status, body: JSON.parse(await res.text()) };
  } catch (err) {
    return { kind: 'cut', message: (err as Error).message };
  }
}

/** `YYYY-MM-DD` of today plus `days`, in UTC (the server's default zone). */
const utcDay = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const sampleOffer = (over: Record<string, unknown>) => ({
  name: 'Offer',
  merchant_name: 'Shop',
  merchant_logo: 'https://example.com/logo.png',
  warranty: 0,
  age: [],
  gender: [],
  category_name: 'Misc',
  discount: 5,
  valid_from: '2025-01-01',
  valid_to: '2025-12-31',
  ...over,
});

/** The demo partner's token, from the credentials a started server printed. */
async function demoToken(url: string, stdout: string): Promise<string> {
  const key = /^APP_KEY='([^']+)'$/m.exec(stdout)?.[1] as string;
  const r = await fetch(`${url}/get-token`, {
    headers: { applicationId: 'demo-bank', applicationKey: key },
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as Json).Token as string;
}

/**
 * A `POST /transactions` sent by hand whose body is held back after its first half: the request
 * stays in flight, on the server too, until {@link HeldRequest.finish} sends the rest.
 */
interface HeldRequest {
  /** Sends the rest of the body; resolves with the status and the JSON body of the answer. */
  finish(): Promise<{ status: number; connection: string | undefined; body: Json }>;
  readonly socket: Socket;
}

async function holdRequest(
  url: string,
  token: string,
  transactions: unknown,
): Promise<HeldRequest> {
  const { hostname, port } = new URL(url);
  const body = Buffer.from(JSON.stringify(transactions));
  const socket = connect(Number(port), hostname);
  await new Promise<void>((done, fail) => socket.once('connect', done).once('error', fail));
  let received = '';
  socket.setEncoding('utf8').on('data', (d: string) => {
    received += d;
  });
  const ended = new Promise<void>((done) => socket.once('close', () => done()));
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /transactions HTTP/1.1\r\nHost: ${hostname}\r\nToken: ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  socket.write(body.subarray(0, half));
  return {
    socket,
    async finish() {
      socket.write(body.subarray(half));
      // The answer ends the connection: while stopping, answers carry `Connection: close`.
      await ended;
      const [head = '', rest = ''] = received.split('\r\n\r\n', 2);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const connection = /^connection: *(.*)$/im.exec(head)?.[1]?.trim();
      // The JSON, whether sent with a length or as one chunk.
      const json = rest.slice(rest.indexOf('['), rest.lastIndexOf(']') + 1);
      return { status, connection, body: JSON.parse(json) };
    },
  };
}

/** A transaction of the demo's sample offers that earns cashback for `customer`. */
const coffee = (id: string, customer: string) => ({
  transaction_id: id,
  description: 'coffee',
  customer_id: customer,
  date: '2025-07-01T08:30:00.000',
  amount: 10,
  merchant: { id: 'm-94', name: 'Coffee House', category_code: '5999' },
  location: { country: 'FR', city: 'Paris' },
});

/** Registers a customer of the demo partner. */
async function addCustomer(url: string, token: string, id: string): Promise<void> {
  const r = await fetch(`${url}/customers/`, {
    method: 'POST',
    headers: { Token: token, 'content-type': 'application/json' },
    body: JSON.stringify([
      {
        customer_id: id,
        birthday: '1995-04-12',
        gender: 'F',
        location: { country: 'FR', city: 'Paris' },
      },
    ]),
  });
  expect(r.status).toBe(200);
}

describe('cashback serve', () => {
  it('serves the printed walk-through, and a SIGTERM under load stores every request answered 200', async () => {
    // Exactly as the README says: `npm start`, here with `-- --port 0`.
    const { served, url } = await startServing(['--port', '0'], {}, true);
    await served.until((out) => WALKTHROUGH.test(out), 'the walk-through');
    const script = WALKTHROUGH.exec(served.stdout())?.[0] as string;
    expect(script).toContain(`BASE='${url}'`);

    // The walk-through, pasted into bash: every endpoint answers 200 in the documented shape.
    const calls = await runWalkthrough(script);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /get-token',
      'POST /customers/',
      'POST /transactions-history',
      'POST /transactions',
      'GET /cashback-payments',
      'GET /cashback-payments',
      'GET /cashback-payments',
      'POST /returns',
      'GET /clawbacks',
      'GET /payments/t-001/history',
      'GET /active-offers',
    ]);
    for (const c of calls) {
      expect(c.status, `${c.method} ${c.path}`).toBe(200);
      checkAgainstOpenApi(c.method, c.path, c.status, c.body);
    }
    const [
      token,
      customers,
      history,
      transactions,
      byQuery,
      byHeaders,
      pending,
      returns,
      clawbacks,
      paymentHistory,
      offers,
    ] = calls.map((c) => c.body);
    expect(token.Token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(customers).toEqual({ Added: 2, Updated: 0, Errors: {} });
    expect(history).toEqual([{ event_id: expect.any(String), errors: {} }]);
    const paid: string[] = transactions[0].payments.map((p: Json) => p.transaction_id);
    expect(paid.sort()).toEqual(['t-001', 't-002', 't-004', 't-005', 't-006']);
    // Each reward shape and scope of the sample offers pays: 3% by category, a fixed 10 online,
    // marginal tiers 0.20 + 4.00 + 5.00.
    expect(
      (transactions[0].payments as Json[])
        .filter((p) => ['t-004', 't-005', 't-006'].includes(p.transaction_id))
        .map((p) => [p.transaction_id, p.cashback]),
    ).toEqual([
      ['t-004', 1.26],
      ['t-005', 10],
      ['t-006', 9.2],
    ]);
    expect(Object.keys(transactions[0].errors)).toEqual(['t-003']);
    expect(byQuery.total_count).toBe(5);
    expect(byQuery.transactions).toHaveLength(5);
    expect(byHeaders).toEqual(byQuery);
    // The sample data is from 2025: by the server's clock every payment is confirmed.
    expect(byQuery.transactions.map((t: Json) => t.status)).toEqual(Array(5).fill('confirmed'));
    expect(pending.total_count).toBe(0);
    // Half of t-001, returned before its payment day but reported after it, is clawed back (what
    // the return would have taken: 0.34 less the 0.17 that 2.10 earns); t-002, returned on its
    // payment day, keeps its cashback.
    expect(returns[0].adjustments).toEqual([]);
    expect(returns[0].clawbacks).toEqual([
      {
        return_id: 'r-001',
        transaction_id: 't-001',
        customer_id: 'c-001',
        offer_id: 2,
        offer_revision: 1,
        amount: 0.17,
        date: '2025-06-05T17:00:00.000',
        reported_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/),
      },
    ]);
    expect(Object.keys(returns[0].errors)).toEqual(['r-002']);
    expect(returns[0].errors['r-002']).toMatch(/on or after the payment day 2025-06-10/);
    expect(clawbacks.clawbacks).toEqual(returns[0].clawbacks);
    expect(paymentHistory).toMatchObject({
      transaction_id: 't-001',
      decided_cashback: 0.34,
      cashback: 0.34,
      clawed_back: 0.17,
      status: 'confirmed',
      changes: [{ kind: 'clawback', return_id: 'r-001', amount: 0.17 }],
    });
    // The sample offers run to 2035: every active one is listed, the scoped ones without a
    // merchant_name.
    expect(offers.map((o: Json) => o.offer_id)).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10]);
    expect(offers.find((o: Json) => o.offer_id === 10)).toMatchObject({
      scope: { merchants: ['Maison Home', 'Casa Living'] },
      reward: { type: 'tiers', mode: 'marginal' },
    });
    expect(offers.find((o: Json) => o.offer_id === 8)?.merchant_name).toBeUndefined();

    // Load: concurrent batches that each earn cashback, and SIGTERM while requests are in flight.
    const auth = token.Token as string;
    await addCustomer(url, auth, 'c-load');
    const outcomes: Outcome[] = [];
    let answered = 0;
    let inFlight = 0;
    let inFlightAtSignal = -1;
    const loop = async (n: number) => {
      for (let i = 0; i < MAX_BATCHES_PER_LOOP; i++) {
        const batch = Array.from({ length: BATCH }, (_, j) =>
          coffee(`load-${n}-${i}-${j}`, 'c-load'),
        );
        inFlight++;
        const outcome = await postOnce(url, auth, batch);
        inFlight--;
        outcomes.push(outcome);
        if (outcome.kind !== 'answered') return; // the server has gone away
        answered++;
        if (answered === SIGTERM_AFTER_ANSWERS) {
          inFlightAtSignal = inFlight;
          served.child.kill('SIGTERM');
        }
      }
    };
    await Promise.all(Array.from({ length: LOOPS }, (_, n) => loop(n)));
    const exit = await served.exited;

    // The other loops were waiting for answers when the signal went.
    expect(inFlightAtSignal).toBe(LOOPS - 1);
    expect(exit).toEqual({ code: 0, signal: null });
    // Every request was answered 200 in full, or got no answer at all because the server had
    // stopped accepting connections (refused, or an idle keep-alive connection closed). None
    // was answered 5xx or cut after its response began.
    const answers = outcomes.filter((o) => o.kind === 'answered');
    expect(outcomes.filter((o) => o.kind === 'cut')).toEqual([]);
    expect(answers.filter((o) => o.status !== 200)).toEqual([]);
    for (const o of outcomes) if (o.kind === 'unanswered') expect(NO_ANSWER).toContain(o.code);
    expect(answers.length).toBeGreaterThanOrEqual(SIGTERM_AFTER_ANSWERS);
    for (const o of answers) {
      expect(o.body[0].errors).toEqual({});
      expect(o.body[0].payments).toHaveLength(BATCH);
    }
    // Every request answered 200 was stored: the payments the server counts after it stopped
    // are exactly the walk-through's and those of the 200 answers. A request that failed
    // without an answer stored nothing (or the count would be higher).
    const loadPayments = answers.reduce((n, o) => n + o.body[0].payments.length, 0);
    const summary = STOPPED.exec(served.stdout())?.[1];
    expect(summary, served.stdout()).toBe(`demo-bank=${paid.length + loadPayments}`);
  }, 120_000);

  it('answers and stores a request in flight at SIGTERM, and refuses new connections', async () => {
    const { served, url } = await startInMemory();
    const token = await demoToken(url, served.stdout());
    await addCustomer(url, token, 'c-held');
    const held = await holdRequest(url, token, [coffee('held-1', 'c-held')]);

    served.child.kill('SIGTERM');
    await served.until(
      () => served.logs().some((l) => l.msg === 'stopping: requests in flight finish first'),
      'the shutdown to begin',
    );
    // The server logs `stopping` just after closing its listening socket: a new connection (not
    // one of fetch's kept-alive ones) is refused from then on, while the held request goes on.
    const { hostname, port } = new URL(url);
    const refused = await new Promise<string | undefined>((done) => {
      const probe = connect(Number(port), hostname);
      probe.once('connect', () => {
        probe.destroy();
        done('connected');
      });
      probe.once('error', (err: NodeJS.ErrnoException) => done(err.code));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(served.child.exitCode).toBeNull();

    const answer = await held.finish();
    expect(answer.status).toBe(200);
    expect(answer.connection).toBe('close');
    expect(answer.body[0].payments.map((p: Json) => p.transaction_id)).toEqual(['held-1']);
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(STOPPED.exec(served.stdout())?.[1]).toBe('demo-bank=1');
  });

  it('exits at once with 143 on a second SIGTERM during the shutdown', async () => {
    const { served, url } = await startInMemory();
    const token = await demoToken(url, served.stdout());
    const held = await holdRequest(url, token, [coffee('held-1', 'c-none')]);
    served.child.kill('SIGTERM');
    await served.until(
      () => served.logs().some((l) => l.msg === 'stopping: requests in flight finish first'),
      'the shutdown to begin',
    );
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 143, signal: null });
    expect(served.stdout()).not.toMatch(STOPPED);
    held.socket.destroy();
  });

  it('exits 2 with a one-line message for a bad partners file, naming no key', async () => {
    const dir = tempDir('partners');
    const cases: [unknown, RegExp][] = [
      [{ application_id: 'bank-a' }, /must hold a JSON array of partners, got an object/],
      [
        [
          { application_id: 'bank-a', application_key: 'key-one-0123456789' },
          { application_id: 'bank-a', application_key: 'key-two-0123456789' },
        ],
        /application_id 'bank-a' is given twice/,
      ],
      [[{ application_id: 'bank-a', application_key: '' }], /needs an application_key/],
      [[{ application_key: 'key-one-0123456789' }], /partner #1 needs an application_id/],
      [
        [{ application_id: 'b'.repeat(129), application_key: 'key-one-0123456789' }],
        /partner #1: application_id must be a string of 1 to 128 characters/,
      ],
    ];
    for (const [i, [content, message]] of cases.entries()) {
      const file = join(dir, `partners-${i}.json`);
      writeFileSync(file, JSON.stringify(content));
      const r = await runToEnd(['dist/cli.js', 'serve', '--port', '0', '--partners', file]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain('key-one');
    }
    writeFileSync(
      join(dir, 'broken.json'),
      '[{"application_id": "a", "application_key": "key-one" x}]',
    );
    const broken = await runToEnd(['dist/cli.js', 'serve', '--partners', join(dir, 'broken.json')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/is not valid JSON \(line 1, column \d+\)/);
    expect(broken.stderr).not.toContain('key-one');
  });

  it('exits 2 when CASHBACK_TOKEN_SECRET is shorter than 32 bytes', async () => {
    const r = await runToEnd(['dist/cli.js', 'serve', '--port', '0'], {
      CASHBACK_TOKEN_SECRET: 'too-short-0123456789',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^cashback: CASHBACK_TOKEN_SECRET has 20 bytes, at least 32/);
  });

  it('exits 2 for a bad port and for invalid offers', async () => {
    const port = await runToEnd(['dist/cli.js', 'serve', '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--port.*70000.*from 0 to 65535/);
    const file = join(tempDir('offers'), 'offers.json');
    writeFileSync(file, JSON.stringify([{ offer_id: 1, name: 'No merchant' }]));
    const offers = await runToEnd([
      'dist/cli.js',
      'serve',
      '--port',
      '0',
      '--memory',
      '--offers',
      file,
    ]);
    expect(offers.code).toBe(2);
    expect(offers.stderr).toMatch(/^cashback: offers file .*: Invalid offers: offer 1: /);
  });

  it('exits 2 for a bad --late-returns, naming the two it takes', async () => {
    const r = await runToEnd([
      'dist/cli.js',
      'serve',
      '--port',
      '0',
      '--memory',
      '--late-returns',
      'sometimes',
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--late-returns.*'sometimes' is invalid.*clawback, ignore/);
  });

  it('with --late-returns ignore answers a late return late_return and claws nothing back', async () => {
    const { served, url } = await startServing([
      ...startArgs,
      '--port',
      '0',
      '--memory',
      '--data-dir',
      tempDir('data'),
      '--late-returns',
      'ignore',
    ]);
    expect(served.stdout()).toMatch(/late returns: ignore/);
    const token = await demoToken(url, served.stdout());
    await addCustomer(url, token, 'c-late');
    const paid = await postOnce(url, token, [coffee('t-late', 'c-late')]);
    expect(paid).toMatchObject({ kind: 'answered', status: 200 });
    // Dated before its payment day (2025-07-15), arriving now: late.
    const r = await fetch(`${url}/returns`, {
      method: 'POST',
      headers: { Token: token, 'content-type': 'application/json' },
      body: JSON.stringify([
        { return_id: 'r-late', transaction_id: 't-late', date: '2025-07-02T10:00:00' },
      ]),
    });
    const body = (await r.json()) as Json;
    checkAgainstOpenApi('POST', '/returns', r.status, body);
    expect(body[0].adjustments).toEqual([]);
    expect(body[0].clawbacks).toEqual([]);
    expect(body[0].errors['r-late']).toMatch(/confirmed/);
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  });

  it('exits 2 for a bad --limit or --trust-proxy, naming what is wrong, before it makes the data directory', async () => {
    const dataDir = join(tempDir('data'), 'not-made');
    const cases: [string[], RegExp][] = [
      [['--limit', 'bodyByte=1'], /Unknown limit 'bodyByte'; did you mean 'bodyBytes'\?/],
      [['--limit', 'bodyBytes=ten'], /--limit.*name=value with a whole number/],
      [
        ['--limit', 'batchItems=0'],
        /^cashback: --limit batchItems must be a whole number of at least 1/,
      ],
      [
        ['--limit', 'headersTimeoutMs=5000', '--limit', 'requestTimeoutMs=1000'],
        /^cashback: --limit requestTimeoutMs \(1000\) must be at least headersTimeoutMs \(5000\)/,
      ],
      [['--limit', 'batchItems=5', '--limit', 'batchItems=6'], /batchItems is given twice/],
      [['--trust-proxy', '10.0.0.300'], /--trust-proxy.*invalid IP address: 10\.0\.0\.300/],
    ];
    for (const [flags, message] of cases) {
      const r = await runToEnd([
        'dist/cli.js',
        'serve',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        ...flags,
      ]);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr, flags.join(' ')).toMatch(message);
      expect(existsSync(dataDir), flags.join(' ')).toBe(false);
    }
  });

  it('passes --limit to the app and the server, and reads X-Forwarded-For only from --trust-proxy proxies', async () => {
    /**
     * Statuses of token requests for the demo partner with a wrong key (the refused requests that
     * `tokenRequestsPerAddress` counts), each as if from `forwardedFor`.
     */
    const tokens = async (url: string, forwardedFor: string[]) => {
      const statuses: number[] = [];
      for (const address of forwardedFor) {
        const r = await fetch(`${url}/get-token`, {
          headers: {
            applicationId: 'demo-bank',
            applicationKey: 'guess',
            'X-Forwarded-For': address,
          },
        });
        statuses.push(r.status);
        await r.body?.cancel();
      }
      return statuses;
    };
    const limits = ['--limit', 'tokenRequestsPerAddress=2', '--limit', 'batchItems=2'];
    const args = () => [
      'dist/cli.js',
      'serve',
      '--port',
      '0',
      '--memory',
      '--data-dir',
      tempDir('data'),
    ];

    const behind = await startServing([...args(), ...limits, '--trust-proxy', 'loopback']);
    const [a, b] = ['203.0.113.1', '203.0.113.2'];
    expect(await tokens(behind.url, [a, a, a, b])).toEqual([401, 401, 429, 401]);
    const token = await demoToken(behind.url, behind.served.stdout());
    const tx = { transaction_id: 't', customer_id: 'c', date: '2025-01-01T10:00:00', amount: 1 };
    const three = await postOnce(behind.url, token, [tx, tx, tx]);
    expect(three).toMatchObject({ kind: 'answered', status: 413 });
    behind.served.child.kill('SIGTERM');
    await behind.served.exited;

    // Without --trust-proxy the header is the client's word, and is not taken.
    const direct = await startServing([...args(), ...limits]);
    expect(await tokens(direct.url, [a, b, b])).toEqual([401, 401, 429]);
    direct.served.child.kill('SIGTERM');
    await direct.served.exited;

    // One connection per address: a second one is closed as soon as it is accepted.
    const one = await startServing([...args(), '--limit', 'maxConnectionsPerAddress=1']);
    const { hostname, port } = new URL(one.url);
    const held = connect(Number(port), hostname);
    await new Promise((resolve) => held.once('connect', resolve));
    const refused = await fetch(`${one.url}/healthz`).then(
      (r) => r.status,
      (err: { cause?: { code?: string } }) => err.cause?.code ?? 'failed',
    );
    expect(refused).not.toBe(200);
    held.destroy();
    let status: number | string = 'never';
    for (const until = Date.now() + 5_000; status !== 200 && Date.now() < until; ) {
      status = await fetch(`${one.url}/healthz`).then(
        (r) => r.status,
        () => 'failed',
      );
    }
    expect(status).toBe(200);
    one.served.child.kill('SIGTERM');
    expect(await one.served.exited).toEqual({ code: 0, signal: null });
  });

  it("makes the token secret once, mode 0600, and a partner's token of one run works on the next", async () => {
    const dataDir = join(tempDir('data'), 'nested');
    const partners = join(tempDir('partners'), 'partners.json');
    const key = 'bank-a-key-7f3c9e1d2b4a6f80';
    writeFileSync(partners, JSON.stringify([{ application_id: 'bank-a', application_key: key }]));
    const args = ['dist/cli.js', 'serve', '--port', '0', '--memory', '--partners', partners];
    const offersWith = (url: string, token: string) =>
      fetch(`${url}/active-offers`, { headers: { Token: token } }).then((r) => r.status);

    const first = await startServing([...args, '--data-dir', dataDir]);
    const secretFile = join(dataDir, 'token-secret');
    expect(first.served.stdout()).toContain(`${secretFile} (made now)`);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = readFileSync(secretFile, 'utf8');
    expect(secret).toMatch(/^[0-9a-f]{64}\n$/);
    const got = await fetch(`${first.url}/get-token`, {
      headers: { applicationId: 'bank-a', applicationKey: key },
    });
    const token = ((await got.json()) as Json).Token as string;
    expect(await offersWith(first.url, token)).toBe(200);
    first.served.child.kill('SIGTERM');
    expect((await first.served.exited).code).toBe(0);

    // The same secret and the same key: the token is still valid.
    const second = await startServing([...args, '--data-dir', dataDir]);
    expect(second.served.stdout()).toContain(`${secretFile} (kept from an earlier start)`);
    expect(readFileSync(secretFile, 'utf8')).toBe(secret);
    expect(await offersWith(second.url, token)).toBe(200);
    second.served.child.kill('SIGTERM');
    expect((await second.served.exited).code).toBe(0);

    // Another data directory, another secret: the token is refused there.
    const other = await startServing([...args, '--data-dir', tempDir('data')]);
    expect(await offersWith(other.url, token)).toBe(401);
    other.served.child.kill('SIGTERM');
    expect((await other.served.exited).code).toBe(0);
  });

  it('loads the offers file again on SIGHUP, and keeps the offers when the new file is bad', async () => {
    const file = join(tempDir('offers'), 'offers.json');
    const old = sampleOffer({ offer_id: 1, name: 'Ended', merchant_name: 'Old Shop' });
    const current = sampleOffer({
      offer_id: 900,
      name: 'Running',
      merchant_name: 'New Shop',
      valid_from: utcDay(-2),
      valid_to: utcDay(30),
    });
    writeFileSync(file, JSON.stringify([old]));
    const { served, url } = await startServing([
      'dist/cli.js',
      'serve',
      '--port',
      '0',
      '--memory',
      '--data-dir',
      tempDir('data'),
      '--offers',
      file,
    ]);
    const token = await demoToken(url, served.stdout());
    const activeIds = async () => {
      const r = await fetch(`${url}/active-offers`, { headers: { Token: token } });
      expect(r.status).toBe(200);
      return ((await r.json()) as Json[]).map((o) => o.offer_id);
    };
    const logged = (msg: string) => () => served.logs().filter((l) => l.msg === msg).length;
    expect(await activeIds()).toEqual([]);

    writeFileSync(file, JSON.stringify([old, current]));
    served.child.kill('SIGHUP');
    const reloaded = logged('offers loaded again');
    await served.until(() => reloaded() === 1, 'the reload');
    expect(served.logs().find((l) => l.msg === 'offers loaded again')).toMatchObject({
      offers: 2,
      created: 1,
      unchanged: 1,
    });
    expect(await activeIds()).toEqual([900]);

    writeFileSync(file, JSON.stringify([{ offer_id: 901 }]));
    served.child.kill('SIGHUP');
    const refused = logged('offers not loaded again; the offers loaded before stay');
    await served.until(() => refused() === 1, 'the refused reload');
    expect(await activeIds()).toEqual([900]);

    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  });

  it('gives a partners-file partner tokens for its key, and never prints the key', async () => {
    const dir = tempDir('partners');
    const keys = {
      'bank-a': 'bank-a-key-7f3c9e1d2b4a6f80',
      'bank-b': 'bank-b-key-0a9b8c7d6e5f4321',
    };
    const file = join(dir, 'partners.json');
    const webhookSecret = generateWebhookSecret();
    writeFileSync(
      file,
      JSON.stringify([
        { application_id: 'bank-a', application_key: keys['bank-a'] },
        {
          application_id: 'bank-b',
          application_key: keys['bank-b'],
          webhook_url: 'http://127.0.0.1:9/hooks',
          webhook_secret: webhookSecret,
        },
      ]),
    );
    const { served, url } = await startServing([
      'dist/cli.js',
      'serve',
      '--port',
      '0',
      '--memory',
      '--data-dir',
      tempDir('data'),
      '--partners',
      file,
      '--allow-local-webhooks',
    ]);
    expect(served.stdout()).toContain('bank-a, bank-b');
    expect(served.stdout()).not.toMatch(WALKTHROUGH);
    const tokenFor = (id: string, key: string) =>
      fetch(`${url}/get-token`, { headers: { applicationId: id, applicationKey: key } });
    const good = await tokenFor('bank-a', keys['bank-a']);
    expect(good.status).toBe(200);
    const token = ((await good.json()) as Json).Token as string;
    const offers = await fetch(`${url}/active-offers`, { headers: { Token: token } });
    expect(offers.status).toBe(200);
    expect((await tokenFor('bank-a', keys['bank-b'])).status).toBe(401);
    expect((await tokenFor('demo-bank', keys['bank-a'])).status).toBe(401);

    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(STOPPED.exec(served.stdout())?.[1]).toBe('bank-a=0, bank-b=0');
    const printed = served.stdout() + served.stderr();
    for (const key of Object.values(keys)) expect(printed).not.toContain(key);
    expect(printed).not.toContain(webhookSecret);
  });

  it("on SIGHUP refuses a removed partner's key and tokens at once, serves a new partner, keeps a kept partner's tokens, and revokes the tokens of a changed key", async () => {
    const file = join(tempDir('partners'), 'partners.json');
    const keys: Record<string, string> = {
      'bank-a': 'bank-a-key-7f3c9e1d2b4a6f80',
      'bank-b': 'bank-b-key-0a9b8c7d6e5f4321',
      'bank-c': 'bank-c-key-1b2c3d4e5f607182',
    };
    const write = (ids: readonly string[], over: Record<string, string> = {}) =>
      writeFileSync(
        file,
        JSON.stringify(
          ids.map((id) => ({ application_id: id, application_key: over[id] ?? keys[id] })),
        ),
      );
    write(['bank-a', 'bank-b']);
    const { served, url } = await startServing([
      'dist/cli.js',
      'serve',
      '--port',
      '0',
      '--memory',
      '--data-dir',
      tempDir('data'),
      '--partners',
      file,
    ]);
    const tokenFor = async (id: string, key = keys[id] as string) => {
      const r = await fetch(`${url}/get-token`, {
        headers: { applicationId: id, applicationKey: key },
      });
      return { status: r.status, token: ((await r.json()) as Json).Token as string };
    };
    const payments = async (token: string) => {
      const q = 'date_from=2025-01-01&date_to=2025-12-31';
      const r = await fetch(`${url}/cashback-payments?${q}`, { headers: { Token: token } });
      await r.arrayBuffer();
      return r.status;
    };
    const reloads = () => served.logs().filter((l) => l.msg === 'partners loaded again').length;
    const a = await tokenFor('bank-a');
    const b = await tokenFor('bank-b');
    expect([a.status, b.status, (await tokenFor('bank-c')).status]).toEqual([200, 200, 401]);

    write(['bank-b', 'bank-c']);
    served.child.kill('SIGHUP');
    await served.until(() => reloads() === 1, 'the reload of the partners');
    expect((await tokenFor('bank-a')).status).toBe(401);
    expect(await payments(a.token)).toBe(401);
    expect(await payments(b.token)).toBe(200);
    const c = await tokenFor('bank-c');
    expect(c.status).toBe(200);
    expect(await payments(c.token)).toBe(200);

    // A leaked key rotated: one SIGHUP revokes every token of the old key.
    const rotated = 'bank-b-new-key-99aa88bb77cc66dd';
    write(['bank-b', 'bank-c'], { 'bank-b': rotated });
    served.child.kill('SIGHUP');
    await served.until(() => reloads() === 2, 'the second reload of the partners');
    expect(await payments(b.token)).toBe(401);
    expect((await tokenFor('bank-b')).status).toBe(401);
    const renewed = await tokenFor('bank-b', rotated);
    expect(renewed.status).toBe(200);
    expect(await payments(renewed.token)).toBe(200);
    expect(await payments(c.token)).toBe(200);

    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(STOPPED.exec(served.stdout())?.[1]).toBe('bank-b=0, bank-c=0');
    const printed = served.stdout() + served.stderr();
    for (const key of [...Object.values(keys), rotated]) expect(printed).not.toContain(key);
  });

  it('serves another address while one address holds 6,000 connections, with 4,096 file descriptors', async () => {
    const { served, url } = await startServing(
      [...startArgs, '--port', '0', '--memory', '--data-dir', tempDir('data')],
      {},
      false,
      4096,
    );
    const { hostname, port } = new URL(url);
    // 6,000 connections from 127.0.0.1 that send nothing; each is kept open until the server
    // closes it (a connection past the per-address limit is closed at once).
    const sockets: Socket[] = [];
    let closedByServer = 0;
    for (let i = 0; i < 6000; i += 500) {
      await Promise.all(
        Array.from(
          { length: 500 },
          () =>
            new Promise<void>((done) => {
              const socket = connect({
                host: hostname,
                port: Number(port),
                localAddress: '127.0.0.1',
              });
              sockets.push(socket);
              socket.once('connect', () => done());
              socket.once('error', () => done());
              socket.once('close', () => {
                closedByServer++;
                done();
              });
            }),
        ),
      );
    }
    try {
      // Another address (all of 127.0.0.0/8 is loopback on Linux) is still served.
      const answer = await new Promise<{ status?: number; body: string }>((done, fail) => {
        const req = httpRequest(
          {
            host: hostname,
            port: Number(port),
            path: '/healthz',
            localAddress: '127.0.0.2',
            timeout: 10_000,
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (d: string) => {
              body += d;
            });
            res.on('end', () => done({ status: res.statusCode, body }));
          },
        );
        req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
        req.on('error', fail);
        req.end();
      });
      expect(answer).toEqual({ status: 200, body: '{"status":"ok"}' });
      expect(closedByServer).toBeGreaterThanOrEqual(6000 - 256);
      expect(served.stderr()).not.toMatch(/EMFILE/);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  }, 60_000);

  it('on SIGTERM closes a kept-alive connection between requests cleanly, without a reset', async () => {
    const { served, url } = await startInMemory();
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    const events: string[] = [];
    let received = '';
    const answered = new Promise<void>((done) =>
      socket.setEncoding('utf8').on('data', (d: string) => {
        received += d;
        if (received.includes('{"status":"ok"}')) done();
      }),
    );
    socket.on('error', (err: NodeJS.ErrnoException) => events.push(`error ${err.code}`));
    socket.on('end', () => events.push('end'));
    const closed = new Promise<boolean>((done) => socket.on('close', (hadError) => done(hadError)));
    await new Promise<void>((done) => socket.once('connect', () => done()));
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
    await answered;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.toLowerCase()).toContain('connection: keep-alive');

    served.child.kill('SIGTERM');
    const hadError = await closed;
    expect(hadError).toBe(false);
    expect(events).toEqual(['end']);
    expect(await served.exited).toEqual({ code: 0, signal: null });
  });

  it('exits 1 when the port is in use, saying how to find what holds it', async () => {
    const holder = createNetServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    const { port } = holder.address() as AddressInfo;
    try {
      const r = await runToEnd([
        ...startArgs,
        '--port',
        String(port),
        '--memory',
        '--data-dir',
        tempDir('data'),
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
      expect(r.stderr).toContain('another --port');
      expect(r.stderr).toContain(`ss -ltnp 'sport = :${port}'`);
    } finally {
      holder.close();
    }
  });

  it('accepts offers and partners files that start with a UTF-8 byte-order mark', async () => {
    const dir = tempDir('bom');
    const offers = join(dir, 'offers.json');
    const partners = join(dir, 'partners.json');
    const bom = '\uFEFF';
    writeFileSync(
      offers,
      bom + readFileSync(join(root, 'docs', 'examples', 'offers.json'), 'utf8'),
    );
    writeFileSync(
      partners,
      `${bom}${JSON.stringify([{ application_id: 'bank-a', application_key: 'bank-a-key-0123456789' }])}`,
    );
    const { served, url } = await startServing([
      'dist/cli.js',
      'serve',
      '--port',
      '0',
      '--memory',
      '--data-dir',
      tempDir('data'),
      '--offers',
      offers,
      '--partners',
      partners,
    ]);
    expect(served.stdout()).toMatch(/offers {8}10 from/);
    const r = await fetch(`${url}/get-token`, {
      headers: { applicationId: 'bank-a', applicationKey: 'bank-a-key-0123456789' },
    });
    expect(r.status).toBe(200);
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  });

  it('runs the shell blocks of docs/http.md top to bottom, as the partner walk-through they are', async () => {
    const { served, url } = await startInMemory();
    const key = /^APP_KEY='([^']+)'$/m.exec(served.stdout())?.[1] as string;
    const doc = readFileSync(join(root, 'docs', 'http.md'), 'utf8');
    const blocks = [...doc.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
    expect(blocks.length).toBeGreaterThanOrEqual(7);
    const calls = await runWalkthrough(blocks.join('\n'), { BASE: url, APP_KEY: key });
    expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      'GET /get-token 200',
      'GET /get-token 200',
      'POST /customers/ 200',
      'POST /customers 200',
      'POST /activations 200',
      'POST /transactions-history 200',
      'POST /transactions 200',
      'GET /cashback-payments 200',
      'GET /cashback-payments 200',
      'GET /cashback-payments 200',
      'POST /returns 200',
      'GET /cashback-payments 200',
      'GET /clawbacks 200',
      'GET /payments/t-001/history 200',
      'GET /payments/t-003/history 404',
      'GET /active-offers 200',
    ]);
    for (const c of calls) checkAgainstOpenApi(c.method, c.path, c.status, c.body);
    const [
      ,
      ,
      added,
      refused,
      activated,
      history,
      transactions,
      byQuery,
      byHeaders,
      pending,
      returns,
      after,
      clawbacks,
      paymentHistory,
      notPaid,
    ] = calls.map((c) => c.body);
    // The answers the comments of docs/http.md show.
    expect(added).toEqual({ Added: 2, Updated: 0, Errors: {} });
    expect(activated).toEqual({
      Added: 2,
      Updated: 0,
      Errors: {
        'c-002/99': 'Offer with id 99 not found',
        'nobody/7': "Customer with id 'nobody' not found",
      },
    });
    expect(Object.keys(refused.Errors)).toEqual(['c-003', 'c-004']);
    expect(history[0].errors).toEqual({ 'h-002': "Customer with id 'nobody' not found" });
    expect(transactions[0].payments).toEqual([
      { cashback: 0.34, payment_date: '2025-06-16', transaction_id: 't-001' },
      { cashback: 1.32, payment_date: '2025-06-10', transaction_id: 't-002' },
    ]);
    expect(Object.keys(transactions[0].errors)).toEqual(['t-003']);
    expect(byQuery.total_count).toBe(2);
    expect(byHeaders).toEqual(byQuery);
    expect(byQuery.transactions[1]).toEqual({
      transaction_id: 't-001',
      country: 'FR',
      city: 'Paris',
      date: '2025-06-16T00:00:00.000',
      cashback_amount: 0.34,
      offer_id: 2,
      customer_id: 'c-001',
      offer_revision: 1,
      status: 'confirmed',
    });
    expect(pending).toEqual({
      total_count: 0,
      current_page: 1,
      page_size: 100,
      date_from: '2025-06-01',
      date_to: '2025-12-31',
      transactions: [],
    });
    // The sample payments are confirmed by today's clock: the return dated before t-001's
    // payment day arrives late and is clawed back; the payment stays.
    const clawback = {
      return_id: 'r-001',
      transaction_id: 't-001',
      customer_id: 'c-001',
      offer_id: 2,
      offer_revision: 1,
      amount: 0.17,
      date: '2025-06-05T17:00:00.000',
      reported_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/),
    };
    expect(returns[0].adjustments).toEqual([]);
    expect(returns[0].clawbacks).toEqual([clawback]);
    expect(returns[0].errors).toEqual({
      'r-002':
        'Returned on 2025-06-10, on or after the payment day 2025-06-10: the cashback stands',
      'r-003': "Transaction with id 't-404' not found",
      'r-004': 'Invalid return: reported_at must be a date-time YYYY-MM-DDTHH:mm:ss[.fff]',
    });
    const amounts = (page: Json) =>
      page.transactions.map((t: Json) => [t.transaction_id, t.cashback_amount]);
    expect(amounts(byQuery)).toEqual([
      ['t-002', 1.32],
      ['t-001', 0.34],
    ]);
    expect(amounts(after)).toEqual(amounts(byQuery));
    expect(clawbacks).toMatchObject({ total_count: 1, clawbacks: [clawback] });
    expect(paymentHistory).toEqual({
      transaction_id: 't-001',
      customer_id: 'c-001',
      offer_id: 2,
      offer_revision: 1,
      decided_cashback: 0.34,
      cashback: 0.34,
      clawed_back: 0.17,
      payment_date: '2025-06-16',
      status: 'confirmed',
      changes: [{ kind: 'clawback', recorded_at: expect.any(String), ...clawback }],
    });
    expect(notPaid.error).toEqual({
      code: 'payment_not_found',
      message: 'No payment of this transaction: it was not paid, or not stored by this partner',
      details: [{ path: 'transaction_id', message: "no payment of 't-003'" }],
    });
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
  });
});
