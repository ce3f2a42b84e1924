import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Throws, naming `what` and the stale file, unless `dist/` is current (scripts/build-if-stale.mjs
 * --check): tests that run or install the built package must not test an old build.
 * @param what - what the caller does with the build, e.g. 'These tests install the built package.'
 */
export function requireCurrentDist(what: string): void {
  try {
    execFileSync(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs'), '--check'], {
      cwd: root,
      stdio: 'pipe',
      encoding: 'utf8',
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`${what} ${stderr.trim()}`);
  }
}
