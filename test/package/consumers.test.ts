/**
 * The published package as TypeScript projects use it: `npm pack`, the tarball installed into
 * consumer projects (ESM and CommonJS under `moduleResolution: nodenext`, CommonJS under `node10`,
 * and `bundler`), each type-checked with this repository's TypeScript, `strict` and (but for
 * node10) without `skipLibCheck`, so an error inside the shipped declarations counts. The CommonJS and nodenext projects are then run
 * with Node.
 *
 * The tarball is unpacked into the consumers' `node_modules`; the packages it declares as
 * dependencies (and the optional peer fast-check, and @types/node) are linked from this
 * repository's `node_modules`, so nothing is downloaded and a dependency the package forgets to
 * declare is missing there, as it would be for a user.
 *
 * Needs a current `dist/` (`npm run build`, which CI runs before the tests).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCurrentDist } from './_distCurrent.js';
import { packInto } from './_pack.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * Uses every entry point the engine's users, rule authors and store authors need (a registry of
 * `cashback-engine/rules` passes as the root's options, the memory store of
 * `cashback-engine/engine` as the store contract's `Store`) and the types the nodenext bug broke: `new Money(…)` must construct,
 * `MoneyValue` must not be `any` (the `@ts-expect-error` line fails if it is), and
 * `ResolvedOptions.roundingMode` (decimal.js's `Decimal.Rounding`) must resolve.
 */
const CONSUMER = `import {
  Money,
  type MoneyValue,
  type OperatorRegistry,
  replay,
  resolveOptions,
} from 'cashback-engine';
import { createEngine, createMemoryPartners, createMemoryStore } from 'cashback-engine/engine';
import { createHttpApp } from 'cashback-engine/http';
import { createOperatorRegistry, defineOperator } from 'cashback-engine/rules';
import { type Store, StoreUnavailableError } from 'cashback-engine/store';
import { invariants, scenarioArbitrary } from 'cashback-engine/testing';

const price: MoneyValue = new Money('1.10');
// @ts-expect-error a string is not an amount: MoneyValue is a decimal, not \`any\`
const notAnAmount: MoneyValue = '1.10';
const doubled: string = price.times(2).toFixed(2);
const roundingMode: number = resolveOptions({ rounding: 'half-even' }).roundingMode;

const odd = defineOperator({ name: 'odd', factType: 'number', evaluate: (n) => n % 2 === 1 });
const operators: OperatorRegistry = createOperatorRegistry([odd]);
const data = { offers: [], customers: [], transactions: [] };
const result = replay(data, { operators });
invariants.all({ ...data, history: [] }, result);
const paid: number = result.summary.paid;

const partners = createMemoryPartners([{ application_id: 'bank-a' }]);
const store: Store = createMemoryStore();
const engine = createEngine({ partners, store, timeZone: 'UTC' });
const unavailable = new StoreUnavailableError('down', { outcomeUnknown: true });
const app = createHttpApp({ engine, partners, tokenSecret: 'x'.repeat(32) });
const scenarios = scenarioArbitrary({ maxTransactions: 1 });

console.log(
  JSON.stringify({
    doubled,
    roundingMode,
    paid,
    operators: operators.names.includes('odd'),
    app: typeof app.fetch,
    scenarios: typeof scenarios.generate,
    notAnAmount: typeof notAnAmount,
    unavailable: [unavailable instanceof Error, unavailable.code, unavailable.outcomeUnknown],
  }),
);
`;

interface Consumer {
  readonly name: string;
  readonly type: 'module' | 'commonjs';
  readonly compilerOptions: Record<string, unknown>;
  /** Compiled to out/ and run with Node. */
  readonly runs: boolean;
}

const STRICT = {
  strict: true,
  skipLibCheck: false,
  target: 'ES2022',
  lib: ['ES2022'],
  types: ['node'],
};

const consumers: Consumer[] = [
  {
    name: 'ESM, moduleResolution nodenext',
    type: 'module',
    compilerOptions: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext' },
    runs: true,
  },
  {
    name: 'CommonJS, moduleResolution nodenext',
    type: 'commonjs',
    compilerOptions: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext' },
    runs: true,
  },
  {
    // TypeScript's default for `module: commonjs`; it ignores `exports` (typesVersions serves it).
    // fast-check's and zod's own declarations fail under node10, hence skipLibCheck here: the
    // `@ts-expect-error` line still fails if the package's types decay to `any`.
    name: 'CommonJS, moduleResolution node10 (skipLibCheck)',
    type: 'commonjs',
    compilerOptions: {
      ...STRICT,
      module: 'commonjs',
      moduleResolution: 'node10',
      esModuleInterop: true,
      skipLibCheck: true,
    },
    runs: true,
  },
  {
    name: 'ESM, moduleResolution bundler',
    type: 'module',
    compilerOptions: { ...STRICT, module: 'esnext', moduleResolution: 'bundler', noEmit: true },
    runs: false,
  },
];

let work: string;

/** Links `name` from this repository's node_modules into `modules`. */
function link(modules: string, name: string): void {
  const target = join(modules, name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(join(root, 'node_modules', name), target, 'dir');
}

beforeAll(() => {
  requireCurrentDist('These tests install the built package.');

  work = mkdtempSync(join(tmpdir(), 'cashback-consumers-'));
  const tarball = packInto(work);

  const modules = join(work, 'node_modules');
  const installed = join(modules, 'cashback-engine');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const deps = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    '@types/node',
  ];
  for (const name of deps) link(modules, name);

  for (const [i, consumer] of consumers.entries()) {
    const dir = join(work, `consumer-${i}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: `consumer-${i}`, private: true, type: consumer.type }),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { ...consumer.compilerOptions, outDir: 'out' },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
  }
}, 60_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the packed package in a TypeScript project', () => {
  it.concurrent.each(consumers.map((c, i) => [c.name, i, c] as const))(
    '%s: type-checks, and runs with Node where it compiles to JavaScript',
    async (_, i, consumer) => {
      const dir = join(work, `consumer-${i}`);
      const check = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(check).toBe('');
      if (!consumer.runs) return;
      const { stdout } = await run(process.execPath, [join(dir, 'out', 'consumer.js')], {
        cwd: dir,
      });
      expect(JSON.parse(stdout)).toEqual({
        doubled: '2.20',
        roundingMode: 6,
        paid: 0,
        operators: true,
        app: 'function',
        scenarios: 'function',
        notAnAmount: 'string',
        unavailable: [true, 'store_unavailable', true],
      });
    },
    // Four full type-checks of the declarations and their dependencies, side by side.
    180_000,
  );
});
