/**
 * Builds only the `cashback` command (the `cli` entry, ESM, no declarations) into a temporary
 * directory, as test/cli/serve.test.ts does: building the repository's dist/ would race the
 * tests that read it. The command then runs as a real process.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Options } from 'tsup';
import tsupConfig from '../../tsup.config';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What a run of the command gave. */
interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A built command: `run(args)` starts it from the repository root; `remove()` deletes it. */
export interface BuiltCli {
  readonly dir: string;
  run(args: readonly string[]): Promise<CliRun>;
  remove(): void;
}

/**
 * The tsup options of the repository, narrowed to the `cli` entry, ESM, without declarations,
 * source maps or plugins, writing `dir/dist/cli.js`.
 */
export function cliOnlyOptions(dir: string): Options {
  if (typeof tsupConfig === 'function' || Array.isArray(tsupConfig)) {
    throw new Error('tsup.config.ts must export one options object');
  }
  const entry = tsupConfig.entry as Record<string, string>;
  return {
    ...tsupConfig,
    entry: { cli: join(root, entry.cli as string) },
    outDir: join(dir, 'dist'),
    format: ['esm'],
    dts: false,
    sourcemap: false,
    // The plugin that writes the report's browser code into dist/ is a function, which the JSON
    // config `npm start` reads (test/cli/serve.test.ts) cannot hold; without it the command reads
    // those builds from the vega packages in node_modules, as the sources do.
    esbuildPlugins: [],
  };
}

/** Builds the command into `dir/dist/cli.js` (see `cliOnlyOptions`). */
export async function buildCliInto(dir: string): Promise<void> {
  await build({ ...cliOnlyOptions(dir), silent: true, config: false });
}

/**
 * Makes `dir` a package root the command runs in: a copy of package.json and of the sample
 * offers (docs/examples/offers.json), and a link to the repository's node_modules.
 */
export function makePackageRoot(dir: string): void {
  mkdirSync(join(dir, 'docs', 'examples'), { recursive: true });
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  copyFileSync(
    join(root, 'docs', 'examples', 'offers.json'),
    join(dir, 'docs', 'examples', 'offers.json'),
  );
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

export async function buildCli(): Promise<BuiltCli> {
  const dir = mkdtempSync(join(tmpdir(), 'cashback-cli-'));
  // The built command imports its dependencies from node_modules beside it.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await buildCliInto(dir);
  const cli = join(dir, 'dist', 'cli.js');
  return {
    dir,
    async run(args) {
      try {
        const { stdout, stderr } = await promisify(execFile)('node', [cli, ...args], {
          cwd: root,
          timeout: 60_000,
          maxBuffer: 64 * 2 ** 20,
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const e = error as { code?: number; stdout?: string; stderr?: string };
        if (typeof e.code !== 'number') throw error;
        return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
