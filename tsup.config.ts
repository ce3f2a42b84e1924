import { defineConfig } from 'tsup';

/** The `exports` subpaths of package.json: `.` → index, `./store`, `./testing`, `./http`,
 * `./postgres`, `./files`, `./webhooks`. */
const library = {
  index: 'src/index.ts',
  store: 'src/store/entry.ts',
  testing: 'src/testing/index.ts',
  http: 'src/http/index.ts',
  postgres: 'src/store/postgres/index.ts',
  files: 'src/files/index.ts',
  webhooks: 'src/webhooks/index.ts',
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
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
});
