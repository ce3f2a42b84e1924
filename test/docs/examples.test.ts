/**
 * Every TypeScript and JavaScript example of README.md and docs/*.md (a ```ts or ```js block)
 * is checked. A ```ts block is type-checked against the source, with `cashback-engine` and each of
 * its subpaths (`cashback-engine/engine`, `cashback-engine/http`, …) mapped to src/ as
 * package.json and tsup.config.ts pair them, strict, as this repository's own code is. Then each example runs in Node against the built package, from the
 * repository root (so `docs/examples/…` paths work), and must exit 0; a ```js block is run only
 * (it is plain JavaScript: untyped parameters are no error there), so it may not be `no-run`.
 *
 * A comment on the line before a block changes that:
 *
 *   <!-- example: continues -->            the block goes on from the one before it in the file
 *                                          (checked and run as one program)
 *   <!-- example: no-run, <reason> -->     type-checked only
 *   <!-- example: skip, <reason> -->       neither (for a block that is not a program)
 *   <!-- example: output -->               before a ```text block: what the example before it
 *                                          prints, exactly
 *
 * A line of an example ending in `// prints: <text>` states a line of its output: when an example
 * has such lines, it prints exactly those, in order.
 *
 * Examples may import `./myStore.js` for "your own store": here it is the memory store.
 * Running needs a current `dist/` (`npm run build`).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import tsupConfig from '../../tsup.config';
import { requireCurrentDist } from '../package/_distCurrent.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

const MARKER = /^<!--\s*example:\s*(continues|no-run|skip|output)\s*(?:,\s*(.*?))?\s*-->$/;
const FENCE = /^```(\w*)\s*$/;
const PRINTS = /\/\/ prints: (.*)$/;

/** One block of a markdown file. */
interface Block {
  readonly lang: string;
  /** Line number (1-based) of the block's first code line. */
  readonly line: number;
  readonly code: string;
  readonly marker?: { readonly kind: string; readonly reason: string };
}

/** One program: a block and the blocks that continue it. */
interface Example {
  /** `docs/replay.md:7`, the markdown line of its first code line. */
  readonly name: string;
  readonly file: string;
  readonly lang: 'ts' | 'js';
  readonly code: string;
  /** For line i (0-based) of `code`, its line in the markdown file. */
  readonly lines: readonly number[];
  readonly runs: boolean;
  /** What it must print: an output block, or its `// prints:` lines; undefined: anything. */
  readonly output?: string;
}

function blocksOf(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lang = FENCE.exec(lines[i] ?? '')?.[1];
    if (lang === undefined || lang === '') continue;
    let prev = i - 1;
    while (prev >= 0 && (lines[prev] ?? '').trim() === '') prev--;
    const m = MARKER.exec((lines[prev] ?? '').trim());
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`unclosed \`\`\`${lang} block at line ${i + 1}`);
    blocks.push({
      lang,
      line: i + 2,
      code: lines.slice(i + 1, end).join('\n'),
      ...(m ? { marker: { kind: m[1] ?? '', reason: m[2] ?? '' } } : {}),
    });
    i = end;
  }
  return blocks;
}

const markdownFiles = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

const examples: Example[] = [];
const markerProblems: string[] = [];
for (const file of markdownFiles) {
  let last: { -readonly [K in keyof Example]: Example[K] } | undefined;
  for (const block of blocksOf(readFileSync(join(root, file), 'utf8'))) {
    const where = `${file}:${block.line}`;
    const kind = block.marker?.kind;
    if (kind === 'output') {
      if (last === undefined)
        markerProblems.push(`${where}: an output block with no example before`);
      else if (last.output !== undefined) markerProblems.push(`${where}: a second expected output`);
      else last.output = `${block.code}\n`;
      continue;
    }
    if (block.lang !== 'ts' && block.lang !== 'js') {
      if (kind !== undefined) markerProblems.push(`${where}: a marker on a ${block.lang} block`);
      continue;
    }
    if ((kind === 'skip' || kind === 'no-run') && block.marker?.reason === '') {
      markerProblems.push(`${where}: \`${kind}\` needs a reason: <!-- example: ${kind}, why -->`);
    }
    if (kind === 'no-run' && block.lang === 'js') {
      markerProblems.push(`${where}: a js block is only run, so \`no-run\` would check nothing`);
    }
    if (kind === 'skip') continue;
    const lines = block.code.split('\n').map((_, i) => block.line + i);
    if (kind === 'continues') {
      if (last === undefined || last.lang !== block.lang) {
        markerProblems.push(`${where}: continues no ${block.lang} block before it`);
        continue;
      }
      last.code += `\n${block.code}`;
      last.lines = [...last.lines, ...lines];
      continue;
    }
    last = {
      name: where,
      file,
      lang: block.lang,
      code: block.code,
      lines,
      runs: kind !== 'no-run',
    };
    examples.push(last);
  }
}
for (const example of examples) {
  const prints = example.code.split('\n').flatMap((l) => PRINTS.exec(l)?.slice(1) ?? []);
  if (prints.length === 0) continue;
  if (example.output !== undefined) {
    markerProblems.push(`${example.name}: both \`// prints:\` lines and an output block`);
  }
  (example as { output?: string }).output = `${prints.join('\n')}\n`;
}

/** `cashback-engine/testing` → [`src/testing/index.ts`], from the build's own entries. */
function sourcePaths(): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  if (typeof tsupConfig === 'function' || Array.isArray(tsupConfig)) {
    throw new Error('tsup.config.ts must export one options object');
  }
  const entry = tsupConfig.entry as Record<string, string>;
  const paths: Record<string, string[]> = {};
  for (const subpath of Object.keys(pkg.exports)) {
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    const source = entry[name];
    if (source !== undefined) paths[`${pkg.name}${subpath.slice(1)}`] = [join(root, source)];
  }
  return paths;
}

let work: string;
const fileOf = (e: Example, ext: string): string =>
  join(work, `${e.name.replace(/[^A-Za-z0-9]+/g, '-')}.${ext}`);
const diagnostics = new Map<string, string[]>();

beforeAll(() => {
  mkdirSync(join(root, 'temp'), { recursive: true });
  work = mkdtempSync(join(root, 'temp', 'docs-examples-'));
  writeFileSync(
    join(work, 'myStore.ts'),
    "export { createMemoryStore as createMyStore } from 'cashback-engine/engine';\n",
  );
  const typed = examples.filter((e) => e.lang === 'ts');
  const files = typed.map((e) => {
    const path = fileOf(e, 'ts');
    writeFileSync(path, `${e.code}\n`);
    return path;
  });

  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    baseUrl: root,
    paths: sourcePaths(),
  });
  const byFile = new Map(typed.map((e, i) => [files[i], e]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const example = d.file ? byFile.get(d.file.fileName) : undefined;
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (example === undefined || d.file === undefined || d.start === undefined) {
      const at = d.file ? relative(root, d.file.fileName) : 'the compiler';
      diagnostics.set('', [...(diagnostics.get('') ?? []), `${at}: TS${d.code} ${text}`]);
      continue;
    }
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    const list = diagnostics.get(example.name) ?? [];
    list.push(`${example.file}:${example.lines[line] ?? '?'}: TS${d.code} ${text}`);
    diagnostics.set(example.name, list);
  }
}, 120_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('code examples in README.md and docs/', () => {
  it('are found, and every marker is well formed', () => {
    expect(examples.length).toBeGreaterThan(10);
    expect(markerProblems).toEqual([]);
  });

  it('type-check as a whole, with no error outside the examples', () => {
    expect(diagnostics.get('') ?? []).toEqual([]);
  });

  const typedNames = examples.filter((e) => e.lang === 'ts').map((e) => e.name);
  it.each(typedNames)('%s type-checks', (name) => {
    expect(diagnostics.get(name) ?? []).toEqual([]);
  });

  describe('run against the built package', () => {
    beforeAll(() => {
      requireCurrentDist('The examples run against the built package.');
    });

    const runnable = examples.filter((e) => e.runs).map((e) => [e.name, e] as const);
    it.concurrent.each(runnable)(
      '%s runs, exits 0 and prints what the docs say',
      async (_, example) => {
        const js = ts.transpileModule(example.code, {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        }).outputText;
        const path = fileOf(example, 'mjs');
        writeFileSync(path, js);
        const { stdout, stderr } = await run(process.execPath, [path], {
          cwd: root,
          timeout: 60_000,
          env: {
            ...process.env,
            // What the HTTP example reads from its environment.
            BANK_A_KEY: 'a-long-random-key',
            BANK_A_WEBHOOK_SECRET: 'whsec_example',
            CASHBACK_TOKEN_SECRET: 'an-example-token-secret-of-at-least-32-bytes',
          },
        }).catch((error: { stdout?: string; stderr?: string; message: string }) => ({
          stdout: error.stdout ?? '',
          stderr: `exit ${error.message}\n${error.stderr ?? ''}`,
        }));
        expect(stderr.startsWith('exit '), stderr).toBe(false);
        if (example.output !== undefined) expect(stdout).toBe(example.output);
      },
    );
  });
});
