import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Options } from 'tsup';
import { vegaBrowserBuilds } from './src/files/vegaBuilds.js';

/** The `exports` subpaths of package.json: `.` → index, `./engine`, `./rules`, `./store`,
 * `./testing`, `./http`, `./postgres`, `./files`, `./webhooks`. */
const library = {
  index: 'src/index.ts',
  engine: 'src/engine/entry.ts',
  rules: 'src/rules/entry.ts',
  store: 'src/store/entry.ts',
  testing: 'src/testing/index.ts',
  http: 'src/http/index.ts',
  postgres: 'src/store/postgres/index.ts',
  files: 'src/files/index.ts',
  webhooks: 'src/webhooks/index.ts',
};

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/** The file of dist/ that holds the backtest report's browser code. */
const VEGA_BUILDS = 'vega-builds.cjs';

/**
 * Builds the backtest report's browser code into dist/: src/files/vegaBuilds.ts becomes
 * dist/vega-builds.cjs, the text of the Vega builds it reads, so the installed package needs no
 * vega package (docs/backtest.md). One CommonJS file that the ESM and CommonJS builds both load,
 * so the text is in the package once.
 */
const vegaBuilds: Plugin = {
  name: 'vega-builds',
  setup(build) {
    build.onResolve({ filter: /^\.\/vegaBuilds\.js$/ }, (args) =>
      /[\\/]src[\\/]files$/.test(args.resolveDir)
        ? { path: `./${VEGA_BUILDS}`, external: true }
        : undefined,
    );
    build.onEnd((result) => {
      const outdir = build.initialOptions.outdir;
      if (result.errors.length > 0 || outdir === undefined) return;
      mkdirSync(outdir, { recursive: true });
      writeFileSync(
        join(outdir, VEGA_BUILDS),
        `'use strict';\nconst builds = ${JSON.stringify(vegaBrowserBuilds())};\nexports.vegaBrowserBuilds = () => builds;\n`,
      );
    });
  },
};

// One entry per `exports` subpath in package.json, plus one per `bin` command (`cli`, the
// `cashback` command); test/package.test.ts checks they agree. The library entries are built as
// ESM and CommonJS with declarations; the command only as the ESM file `bin` names.
export default defineConfig({
  entry: { ...library, cli: 'src/cli/index.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: library },
  esbuildOptions(options, { format }) {
    if (format === 'cjs') {
      // A fresh object: tsup passes the same `entry` to the ESM build.
      const { cli: _, ...cjsEntries } = options.entryPoints as Record<string, string>;
      options.entryPoints = cjsEntries;
    }
  },
  esbuildPlugins: [vegaBuilds],
  // No source maps: they would double the installed size (README, "Install").
  sourcemap: false,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
});
