/**
 * The lock of a PGlite data directory (docs/cli.md, "Where the data lives"), with real processes:
 * several children find one lock left by a process killed with SIGKILL and all take it at the
 * same instant. Exactly one gets it; every other one fails naming the winner's process. The
 * winner is then killed too, and the others race again on the lock it left, round after round.
 * A take-over cut short by a kill does not block the directory for good.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { lockDataDir } from '../../src/cli/storeChoice.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Children started; the first leaves the first stale lock, so 7 race, then 6, … then 2. */
const CHILDREN = 8;
/** How long before the start instant the test tells the children, for every line to arrive. */
const LEAD_MS = 300;
/** The bound on any answer of a child. */
const ANSWER_MS = 30_000;

let outDir = '';
let childFile = '';
let parent = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  const cache = join(root, 'node_modules', '.cache', 'cashback-engine-tests');
  mkdirSync(cache, { recursive: true });
  outDir = mkdtempSync(join(cache, 'lock-child-'));
  await build({
    entry: { child: join(root, 'test/cli/_lockChild.ts') },
    outDir,
    format: ['esm'],
    target: 'node20',
    dts: false,
    silent: true,
    config: false,
    external: ['pg', '@electric-sql/pglite'],
  });
  childFile = join(outDir, 'child.js');
  parent = mkdtempSync(join(tmpdir(), 'cashback-lock-'));
}, 120_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(outDir, { recursive: true, force: true });
  rmSync(parent, { recursive: true, force: true });
});

/** A child and the lines it printed, each taken once by `next`. */
interface Racer {
  readonly child: ChildProcess;
  next(): Promise<string>;
}

function start(): Racer {
  const child = spawn(process.execPath, [childFile], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  return {
    child,
    next: () => {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer from a child')), ANSWER_MS);
        waiting.push((l) => {
          clearTimeout(timer);
          resolve(l);
        });
      });
    },
  };
}

/** Kills a child with SIGKILL and waits until it is gone. */
async function kill(r: Racer): Promise<void> {
  const gone = new Promise((resolve) => r.child.once('exit', resolve));
  r.child.kill('SIGKILL');
  await gone;
}

/** Tells every racer to take the lock of `dir` at one instant; their answers, in order. */
async function race(racers: readonly Racer[], dir: string): Promise<string[]> {
  const at = Date.now() + LEAD_MS;
  for (const r of racers) r.child.stdin?.write(`go ${dir} ${at}\n`);
  return Promise.all(racers.map((r) => r.next()));
}

test('of processes that find one lock left by a killed process, exactly one takes it, round after round', async () => {
  const dir = join(parent, 'db');
  const lock = `${dir}.lock`;
  let racers = Array.from({ length: CHILDREN }, start);
  for (const r of racers) expect(await r.next()).toBe('ready');

  const [first, ...rest] = racers as [Racer, ...Racer[]];
  expect(await race([first], dir)).toEqual(['won']);
  await kill(first);
  racers = rest;

  while (racers.length >= 2) {
    expect(existsSync(lock)).toBe(true); // left by a process that is gone
    const answers = await race(racers, dir);
    const winners = racers.filter((_, i) => answers[i] === 'won');
    expect(winners, answers.join('\n')).toHaveLength(1);
    const winner = winners[0] as Racer;
    const pid = winner.child.pid as number;
    expect(readFileSync(lock, 'utf8').split('\n')[0]).toBe(String(pid));
    for (const answer of answers.filter((a) => a !== 'won')) {
      expect(answer).toBe(
        `lost the PGlite data directory ${dir} is in use by process ${pid} (${lock}); stop it, or give another --data-dir`,
      );
    }
    racers = racers.filter((r) => r !== winner);
    if (racers.length >= 2) await kill(winner);
    else {
      // The last winner gives the lock back as it exits; nothing is left beside the directory.
      const gone = new Promise((resolve) => winner.child.once('exit', resolve));
      for (const r of [winner, ...racers]) r.child.stdin?.end();
      await gone;
    }
  }
  expect(readdirSync(parent)).toEqual([]);
}, 120_000);

test('takes over a lock whose take-over was cut short by a kill, and leaves nothing behind', () => {
  const dir = join(mkdtempSync(join(parent, 'cut-')), 'db');
  const lock = `${dir}.lock`;
  const dead = () => spawnSync(process.execPath, ['-e', '']).pid;
  const stale = `${dead()}\n`;
  writeFileSync(lock, stale);
  // The right to remove that lock, held by a process killed before it did.
  const right = `${lock}.${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
  writeFileSync(right, `${dead()}\nkilled\n`);
  const unlock = lockDataDir(dir);
  expect(readFileSync(lock, 'utf8').split('\n')[0]).toBe(String(process.pid));
  expect(existsSync(right)).toBe(false);
  unlock();
  expect(readdirSync(join(dir, '..'))).toEqual([]);
});
