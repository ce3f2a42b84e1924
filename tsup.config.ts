import { defineConfig } from 'tsup';

// One entry per `exports` subpath in package.json, plus one per `bin` command (`cli`, the
// `cashback` command); test/package.test.ts checks they agree.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    http: 'src/http/index.ts',
    postgres: 'src/store/postgres/index.ts',
    cli: 'src/cli/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
});
