import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The browser builds the report inlines, in load order: a package and its file beside `main`. */
const BUILDS = [
  ['vega', 'vega.min.js'],
  ['vega-lite', 'vega-lite.min.js'],
  ['vega-embed', 'vega-embed.min.js'],
] as const;

/**
 * The minified browser builds of Vega, Vega-Lite and vega-embed, in the order a page loads them.
 * This reads the vega packages (devDependencies); the build replaces this module with their text
 * (tsup.config.ts), so the published package reads no file for the report and depends on no
 * vega package (docs/backtest.md).
 * @returns the three scripts' text
 */
export function vegaBrowserBuilds(): readonly string[] {
  // import.meta.url when run as ESM; tsup.config.ts's loader may run it as CommonJS.
  const require = createRequire(import.meta.url ?? __filename);
  return BUILDS.map(([pkg, file]) =>
    readFileSync(join(dirname(require.resolve(pkg)), file), 'utf8'),
  );
}
