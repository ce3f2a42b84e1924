// Figure 3: streaming `createReplay(...).push` from an NDJSON file, against reading the same file
// with `JSON.parse` alone. Each measurement runs in its own child process (replay-child.mjs), so
// the peak RSS it reports is its own.
import { fork } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATOR_VERSION, generateTransactions } from './data.mjs';
import { throughput } from './util.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const DATA_DIR = join(here, '..', '.bench-data');

/** The cached NDJSON file of these transactions; written once (atomically), reused after. */
export function ensureNdjson({ count, customers, offers, seed }) {
  const file = join(
    DATA_DIR,
    `tx-v${GENERATOR_VERSION}-s${seed}-c${customers}-o${offers}-n${count}.ndjson`,
  );
  if (existsSync(file)) return { file, written: false };
  mkdirSync(DATA_DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  let lines = [];
  for (const tx of generateTransactions({ count, customers, offers, seed })) {
    lines.push(JSON.stringify(tx));
    if (lines.length === 10_000) {
      writeSync(fd, `${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) writeSync(fd, `${lines.join('\n')}\n`);
  closeSync(fd);
  renameSync(tmp, file);
  return { file, written: true };
}

/** Runs one measurement (`floor` or `replay`) in a child process; resolves with its report. */
export function runChild(mode, { file, customers, offers, seed }) {
  const args = [mode, file, String(customers), String(offers), String(seed)];
  return new Promise((resolve, reject) => {
    const child = fork(join(here, 'replay-child.mjs'), args, {
      execArgv: ['--expose-gc'],
      env: process.env,
    });
    let report;
    child.on('message', (m) => {
      report = m;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && report !== undefined) resolve(report);
      else reject(new Error(`replay child (${mode}) exited with code ${code}`));
    });
  });
}

/** The median of several runs of one mode, and the highest peak RSS among them. */
function combine(list) {
  const { lines, summary, retainedHeapMiB, retained } = list[0];
  const maxRssMiB = Math.max(...list.map((r) => r.maxRssMiB));
  const runs = throughput(
    lines,
    list.map((r) => r.seconds),
  );
  return { ...runs, lines, maxRssMiB, retainedHeapMiB, retained, summary };
}

/** Floor and replay, alternating, `repeats` times each. */
export async function benchReplay(data, repeats) {
  const runs = { floor: [], replay: [] };
  for (let i = 0; i < repeats; i++) {
    runs.floor.push(await runChild('floor', data));
    runs.replay.push(await runChild('replay', data));
  }
  return { floor: combine(runs.floor), replay: combine(runs.replay) };
}
