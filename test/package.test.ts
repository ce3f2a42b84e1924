/**
 * The package as users get it: package.json `exports` and `bin` and the tsup entries agree, the
 * built entries load in Node under both `import` and `require` without dragging in what they must
 * not, and the built commands start with a shebang.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import tsupConfig from '../tsup.config';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  type?: string;
  sideEffects?: unknown;
  engines?: { node?: string };
  main?: string;
  module?: string;
  types?: string;
  typesVersions?: Record<string, Record<string, string[]>>;
  exports: Record<string, unknown>;
  bin?: string | Record<string, string>;
  license?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, unknown>;
};

/**
 * The core entry, the engine's, the rule authors' and the store authors' must not load test or
 * adapter dependencies: an engine-only user installs none.
 */
const CORE_FORBIDDEN = ['fast-check', 'pg', '@electric-sql/pglite', 'hono', 'jose'];
/** The entries that load no adapter (the `core-entry-loads-no-adapter` rule checks their sources). */
const CORE_ENTRIES = ['index', 'engine', 'rules', 'store'];

/** `.` → `index`, `./testing` → `testing`; `./package.json` is not a build entry. */
const entryOfSubpath = (subpath: string): string =>
  subpath === '.' ? 'index' : subpath.replace(/^\.\//, '');
const subpaths = Object.keys(pkg.exports).filter((s) => s !== './package.json');
const entries = subpaths.map(entryOfSubpath);

/** Only the command line may load these (src/cli); no export entry may reach them. */
const CLI_ONLY = ['commander', 'pino'];

/** The commands of package.json `bin` (a string names one command after the package). */
const commands: [string, string][] = Object.entries(
  typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {}),
);
/** `./dist/cli.js` → `cli`; undefined for a path that is not a dist ESM file. */
const entryOfBin = (path: string): string | undefined => /^\.\/dist\/([^/]+)\.js$/.exec(path)?.[1];
/** The tsup entries the commands run: built files, but not exports. */
const binEntries = commands.map(([, path]) => entryOfBin(path) ?? path);

/** The tsup options; these checks need the plain-object form of tsup.config.ts. */
function tsupOptions(): Exclude<typeof tsupConfig, unknown[] | ((...args: never[]) => unknown)> {
  if (typeof tsupConfig === 'function' || Array.isArray(tsupConfig)) {
    throw new Error('tsup.config.ts must export one options object for this test to read');
  }
  return tsupConfig;
}

describe('package.json', () => {
  it('is an ES module package without side effects, for Node 20 and later', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.engines?.node).toBe('>=20');
  });

  it('has one tsup entry per exports subpath and per bin command, and no other', () => {
    const { entry } = tsupOptions();
    if (entry === undefined || Array.isArray(entry)) {
      throw new Error(
        'tsup.config.ts `entry` must be an object naming each output: { index: ... }',
      );
    }
    expect(Object.keys(entry).sort()).toEqual([...new Set([...entries, ...binEntries])].sort());
  });

  it.each(commands)('runs the %s command from a built ESM entry, ./dist/<entry>.js', (_, path) => {
    expect(entryOfBin(path), path).toBeDefined();
  });

  it.each(subpaths)('maps %s to the files tsup writes for it', (subpath) => {
    const name = entryOfSubpath(subpath);
    expect(pkg.exports[subpath]).toEqual({
      import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
      require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
    });
  });

  it('maps each subpath to its types for resolvers that ignore exports (typesVersions)', () => {
    const expected = Object.fromEntries(
      subpaths
        .filter((s) => s !== '.')
        .map((s) => [s.slice(2), [`./dist/${entryOfSubpath(s)}.d.ts`]]),
    );
    expect(pkg.typesVersions).toEqual({ '*': expected });
  });

  it('agrees with the root of package-lock.json, so `npm install` leaves the lockfile as it is', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, Record<string, unknown>>;
    };
    const bin = Object.fromEntries(
      commands.map(([name, path]) => [name, path.replace(/^\.\//, '')]),
    );
    const fields = {
      name: pkg.name,
      version: pkg.version,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin,
      devDependencies: pkg.devDependencies,
      engines: pkg.engines,
      peerDependencies: pkg.peerDependencies,
      peerDependenciesMeta: pkg.peerDependenciesMeta,
    };
    expect(lock.packages['']).toEqual(fields);
  });

  it('points main, module and types at the index entry', () => {
    expect(pkg.main).toBe('./dist/index.cjs');
    expect(pkg.module).toBe('./dist/index.js');
    expect(pkg.types).toBe('./dist/index.d.ts');
  });

  it('builds both module formats with declarations', () => {
    const { format, dts } = tsupOptions();
    expect([format].flat().sort()).toEqual(['cjs', 'esm']);
    expect(dts).toBeTruthy();
  });

  it('builds the commands only as ESM, without declarations', () => {
    const { entry, dts, esbuildOptions } = tsupOptions();
    const all = entry as Record<string, string>;
    const cjs: { entryPoints?: unknown } = { entryPoints: { ...all } };
    esbuildOptions?.(cjs as never, { format: 'cjs' });
    expect(Object.keys(cjs.entryPoints as object).sort()).toEqual([...entries].sort());
    const esm: { entryPoints?: unknown } = { entryPoints: { ...all } };
    esbuildOptions?.(esm as never, { format: 'esm' });
    expect(Object.keys(esm.entryPoints as object).sort()).toEqual(Object.keys(all).sort());
    expect(Object.keys((dts as { entry: object }).entry).sort()).toEqual([...entries].sort());
  });
});

/** The names the root entry promises, values and types, read from its source. */
function rootExportNames(): string[] {
  const file = join(root, 'src', 'index.ts');
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error('src/index.ts: no module symbol');
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

describe('the root entry (src/index.ts)', () => {
  it('names its exports one by one, at most 120 of them (docs/architecture.md, Entry points)', () => {
    const text = readFileSync(join(root, 'src', 'index.ts'), 'utf8');
    expect(text).not.toMatch(/export \*/);
    const names = rootExportNames();
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(120);
  });
});

/** Runs `node` with these arguments and returns its stdout; throws with its stderr on failure. */
function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: 'pipe' });
}

/** Export names of a built entry as Node itself loads it (no vitest transform in between). */
function exportNames(file: string, format: 'esm' | 'cjs'): string[] {
  const load =
    format === 'esm'
      ? `await import(${JSON.stringify(pathToFileURL(file).href)})`
      : `require(${JSON.stringify(file)})`;
  const script = `console.log(JSON.stringify(Object.keys(${load}).sort()));`;
  const type = format === 'esm' ? 'module' : 'commonjs';
  return JSON.parse(node(['--input-type', type, '-e', script])) as string[];
}

/**
 * Bare specifiers reachable from an ESM file through relative imports (static imports,
 * re-exports, literal dynamic `import()`), each with the chain of dist files that reaches it.
 */
function bareImportsOf(entryFile: string): Map<string, string[]> {
  const specifier = /\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g;
  const found = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const here = [...chain, relative(root, file)];
    for (const [, spec = ''] of readFileSync(file, 'utf8').matchAll(specifier)) {
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec), here);
      else if (!found.has(spec)) found.set(spec, here);
    }
  };
  visit(entryFile, []);
  return found;
}

/** `fast-check/lib/x` → `fast-check`, `@scope/name/x` → `@scope/name`. */
const packageOf = (spec: string): string =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

describe.skipIf(!existsSync(dist))('built package (skipped without dist/: `npm run build`)', () => {
  it.each(subpaths)('%s: every file the exports map names exists', (subpath) => {
    const name = entryOfSubpath(subpath);
    for (const file of [`${name}.js`, `${name}.cjs`, `${name}.d.ts`, `${name}.d.cts`]) {
      expect(existsSync(join(dist, file)), `dist/${file}`).toBe(true);
    }
  });

  it.each(entries)('%s loads under import and require with the same exports', (name) => {
    const esm = exportNames(join(dist, `${name}.js`), 'esm');
    const cjs = exportNames(join(dist, `${name}.cjs`), 'cjs');
    expect(esm.length).toBeGreaterThan(0);
    expect(cjs).toEqual(esm);
  });

  it.each(entries)(
    '%s exports no zod schema: schemas stay inside, the input types are exported',
    (name) => {
      const script = `const m = await import(${JSON.stringify(pathToFileURL(join(dist, `${name}.js`)).href)});
      console.log(JSON.stringify(Object.keys(m).filter((k) => typeof m[k]?.safeParse === 'function')));`;
      expect(JSON.parse(node(['--input-type', 'module', '-e', script]))).toEqual([]);
    },
  );

  it.each(CORE_ENTRIES)(
    '%s.js and the chunks it imports do not import fast-check or adapter dependencies',
    (name) => {
      const offending = [...bareImportsOf(join(dist, `${name}.js`))]
        .filter(([spec]) => CORE_FORBIDDEN.includes(packageOf(spec)))
        .map(([spec, chain]) => `${spec} via ${chain.join(' -> ')}`);
      expect(offending).toEqual([]);
    },
  );

  it.each(entries)(
    '%s.js and the chunks it imports do not import the CLI-only packages',
    (name) => {
      const offending = [...bareImportsOf(join(dist, `${name}.js`))]
        .filter(([spec]) => CLI_ONLY.includes(packageOf(spec)))
        .map(([spec, chain]) => `${spec} via ${chain.join(' -> ')}`);
      expect(offending).toEqual([]);
    },
  );

  it('holds no files for the commands but their ESM entry', () => {
    const extra = readdirSync(dist).filter((file) =>
      binEntries.some((name) => file.startsWith(`${name}.`) && !/\.js(\.map)?$/.test(file)),
    );
    expect(extra).toEqual([]);
  });

  it.each(commands)('the %s command is an executable file with a node shebang', (_, path) => {
    const file = join(root, path);
    expect(readFileSync(file, 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
    expect(statSync(file).mode & 0o111, `${path} is executable`).not.toBe(0);
  });

  it.each(commands)('the %s command runs: --version prints the package version', (_, path) => {
    expect(node([join(root, path), '--version']).trim()).toBe(pkg.version);
  });

  it.each(CORE_ENTRIES)('requiring %s.cjs loads no fast-check or adapter dependency', (name) => {
    const script = `require(${JSON.stringify(join(dist, `${name}.cjs`))});
      console.log(JSON.stringify(Object.keys(require.cache)));`;
    const loaded = JSON.parse(node(['--input-type', 'commonjs', '-e', script])) as string[];
    const offending = loaded.filter((file) => {
      const posix = file.split(sep).join('/');
      return CORE_FORBIDDEN.some((name) => posix.includes(`/node_modules/${name}/`));
    });
    expect(offending).toEqual([]);
  });
});
