/**
 * The structure of src/ that docs/architecture.md describes, checked on every `npm run lint`:
 * layers import only downward, the core entry point never reaches an adapter's or a test tool's
 * package, no module imports an entry point, and nothing is imported in a cycle (type-only
 * imports count).
 * @type {import('dependency-cruiser').IConfiguration}
 */

// Each layer and the layers below it that it may import (docs/architecture.md, "Layers").
const LAYERS = {
  rules: [],
  model: ['rules'],
  matching: ['model', 'rules'],
  core: ['matching', 'model', 'rules'],
  store: ['model', 'rules'],
  engine: ['store', 'core', 'matching', 'model', 'rules'],
  http: ['engine', 'store', 'core', 'matching', 'model', 'rules'],
  webhooks: ['engine', 'store', 'core', 'matching', 'model', 'rules'],
  files: ['engine', 'store', 'core', 'matching', 'model', 'rules'],
  // The service's lifecycle: the app, the server and the webhook dispatcher started and stopped
  // together. Published by the `cashback-engine/http` entry (ENTRY_EXPORTS below).
  service: ['http', 'webhooks', 'engine', 'store', 'core', 'matching', 'model', 'rules'],
  cli: [
    'service',
    'http',
    'webhooks',
    'files',
    'testing',
    'engine',
    'store',
    'core',
    'matching',
    'model',
    'rules',
  ],
  testing: ['engine', 'store', 'core', 'matching', 'model', 'rules'],
};
const ALL = Object.keys(LAYERS);

// A layer's entry file (`src/<layer>/index.ts`, a package entry point) that also publishes a
// layer above it: only the entry may import it, and nothing else of that layer does.
const ENTRY_EXPORTS = { http: ['service'] };
// The entry points that are nothing but an entry (tsup.config.ts): `cashback-engine`,
// `cashback-engine/engine`, `cashback-engine/rules` and `cashback-engine/store`. The other
// entries are also their layer's index, which other layers use.
const ENTRY_POINTS = '^src/(index|engine/entry|rules/entry|store/entry)\\.ts$';

// Packages only an adapter or the testing entry may load: importing `cashback-engine` alone must
// never load them (docs/architecture.md, "Entry points").
const ADAPTER_PACKAGES = [
  'hono',
  '@hono',
  'jose',
  'rate-limiter-flexible',
  'pg',
  '@electric-sql',
  'standardwebhooks',
  'undici',
  'commander',
  'pino',
  'fast-check',
  'papaparse',
  'proxy-addr',
  'csv-stringify',
  'hyparquet',
  'vega',
  'vega-lite',
  'vega-embed',
];

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => {
  const forbidden = ALL.filter((other) => other !== layer && !allowed.includes(other));
  return {
    name: `layer-${layer}`,
    comment: `${layer} may import only ${allowed.length === 0 ? 'itself' : allowed.join(', ')}`,
    severity: 'error',
    from: { path: `^src/${layer}/` },
    to: {
      path: `^src/(${forbidden.join('|')})/`,
      ...(ENTRY_EXPORTS[layer] === undefined
        ? {}
        : { pathNot: `^src/(${ENTRY_EXPORTS[layer].join('|')})/` }),
    },
  };
});
const entryRules = Object.entries(ENTRY_EXPORTS).map(([layer, above]) => ({
  name: `entry-${layer}`,
  comment: `only the entry of ${layer} (src/${layer}/index.ts) may import ${above.join(', ')}`,
  severity: 'error',
  from: { path: `^src/${layer}/`, pathNot: `^src/${layer}/index\\.ts$` },
  to: { path: `^src/(${above.join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    ...entryRules,
    {
      name: 'postgres-is-an-adapter',
      comment: 'the memory store and the store contract never import the PostgreSQL store',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(store/postgres|cli|testing)/|^src/postgres\\.ts$' },
      to: { path: '^src/store/postgres/' },
    },
    {
      name: 'core-entry-loads-no-adapter',
      comment:
        'everything cashback-engine, /engine, /rules and /store reach stays free of adapter packages',
      severity: 'error',
      from: { path: ENTRY_POINTS },
      to: {
        reachable: true,
        path: `node_modules/(${ADAPTER_PACKAGES.map((p) => p.replace('.', '\\.')).join('|')})/`,
      },
    },
    {
      // The entry points are for users: a module that imported one would reach every layer by a
      // route the layer rules do not see (src/index.ts is in no layer's folder).
      name: 'no-entry-import',
      comment: 'src/ imports the module that owns a name, never an entry point of the package',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: ENTRY_POINTS },
    },
    {
      // tsPreCompilationDeps (below) keeps type-only imports in the graph, and no `viaOnly` here
      // leaves them out: a circle closed by `import type` is a circle (docs/architecture.md).
      name: 'no-circular',
      comment: 'modules import each other in one direction only, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
