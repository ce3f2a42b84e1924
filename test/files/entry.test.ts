/**
 * Importing `cashback-engine` (or its engine, rules or store entry) loads no file-format code: the
 * CSV, Parquet, gzip and Vega libraries are reached only through `cashback-engine/files`. Checked
 * on the built ESM output (`npm run build` first) by following its static imports from each entry.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const IMPORT =
  /(?:^|[;\n])\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*["']([^"']+)["']/g;

/** Every bare specifier the module graph from `entry` imports statically. */
function externals(entry: string): Set<string> {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? '';
      if (spec.startsWith('.')) visit(join(dirname(file), spec));
      else bare.add(spec);
    }
  };
  visit(join(dist, entry));
  return bare;
}

const FILE_LIBRARIES = [
  'papaparse',
  'csv-stringify',
  'hyparquet',
  'vega',
  'vega-lite',
  'vega-embed',
  'zlib',
  'node:zlib',
];

describe('entry points', () => {
  it('cashback-engine imports none of the file-format libraries; cashback-engine/files does', () => {
    expect(existsSync(join(dist, 'index.js')), 'run `npm run build` first').toBe(true);
    const core = [...externals('index.js')];
    expect(core).toContain('decimal.js');
    expect(
      core.filter((s) => FILE_LIBRARIES.some((l) => s === l || s.startsWith(`${l}/`))),
    ).toEqual([]);
    const files = externals('files.js');
    expect(files).toContain('papaparse');
    expect(files).toContain('hyparquet');
  });

  it.each(['engine.js', 'rules.js', 'store.js'])('%s imports none of them either', (entry) => {
    expect(
      [...externals(entry)].filter((s) =>
        FILE_LIBRARIES.some((l) => s === l || s.startsWith(`${l}/`)),
      ),
    ).toEqual([]);
  });
});
