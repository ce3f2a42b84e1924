import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Packs the repository as a publish would (`npm pack`, without running scripts) into `dir`.
 * @param dir - where the tarball goes
 * @returns the tarball's path
 */
export function packInto(dir: string): string {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  ) as { filename: string }[];
  return join(dir, packed[0]?.filename ?? '');
}
