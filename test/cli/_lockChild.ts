/**
 * A child process of test/cli/dataDirLock.test.ts: told `go <dir> <instant>` on stdin, it waits
 * for that instant (epoch ms), takes the PGlite data directory's lock and prints `won` or
 * `lost <message>`; so that several children race on one lock, they all start at one instant. It
 * holds what it won until it is killed (leaving a lock whose process is gone) or stdin closes.
 */
import { createInterface } from 'node:readline';
import { lockDataDir } from '../../src/cli/storeChoice.js';

let unlock: (() => void) | undefined;
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [command, dir = '', instant = ''] = line.split(' ');
  if (command !== 'go') continue;
  const at = Number(instant);
  // A busy wait, bounded by the instant the test chose: a timer would wake each child late by a
  // different amount.
  while (performance.timeOrigin + performance.now() < at) {}
  try {
    unlock = lockDataDir(dir);
    process.stdout.write('won\n');
  } catch (err) {
    process.stdout.write(`lost ${(err as Error).message}\n`);
  }
}
unlock?.();
