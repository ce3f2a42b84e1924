// Draws the map of docs/architecture.md ("Layers") from the imports of src/: one node per folder,
// one arrow per import from a module of one folder to a module of another.
//
//   node scripts/architecture-map.mjs          print the map
//   node scripts/architecture-map.mjs --write  rewrite it between the markers of the page
//                                              (`npm run docs:map`)
//   node scripts/architecture-map.mjs --check  exit 1 naming the arrows the page lacks or has
//                                              too many of
//
// A folder is a top-level folder of src/ (a layer), or a folder below one whose index.ts is a
// package entry point of its own in tsup.config.ts (src/store/postgres, `cashback-engine/postgres`):
// an adapter a user imports apart from its layer is drawn apart. test/docs/architecture.test.ts
// fails while the page and the imports differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGE = 'docs/architecture.md';
const BEGIN = '<!-- map:begin -->';
const END = '<!-- map:end -->';

// What each folder owns, in a few words (the table of docs/architecture.md says it in full).
// A folder without a line here is drawn by its name alone.
const DESCRIPTIONS = {
  cli: 'the cashback command',
  core: 'decide, replay session, returns, explain, backtest',
  engine: 'CashbackEngine',
  files: 'readers, replayFiles, parallel replay, report',
  http: 'partner API',
  matching: 'offers, eligibility, cashback',
  model: 'types, parsing, money, days, options',
  rules: 'condition language',
  service: 'startService, reload, stop',
  store: 'contract, records, memory store',
  'store/postgres': 'the PostgreSQL store',
  testing: 'arbitraries, invariants, conformance',
  webhooks: 'signed delivery',
};

// Mermaid reads `end` as the end of a subgraph, and brackets, quotes, pipes or semicolons in a
// label as syntax: such a name or label must fail here, not draw a broken picture.
const NODE_ID = /^(?!end$)[A-Za-z][A-Za-z0-9_]*$/;
const LABEL = /^[\w ,:/.-]+$/;

/** The modules of src/ and what each imports, as the lint's dependency-cruiser config sees them. */
async function srcModules(root) {
  // The project's own config, so the map counts what the layer rules count: the same
  // resolution, and type-only imports kept (tsPreCompilationDeps).
  const options = await extractDepcruiseOptions(join(root, '.dependency-cruiser.cjs'));
  const tsConfigFile = join(root, options.tsConfig?.fileName ?? 'tsconfig.json');
  const result = await cruise(
    ['src'],
    { ...options, validate: false, baseDir: root, tsConfig: { fileName: tsConfigFile } },
    undefined,
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  if (typeof result.output === 'string') throw new Error('dependency-cruiser gave no module list');
  return result.output.modules.map((module) => ({
    source: module.source,
    imports: module.dependencies.map((dependency) => dependency.resolved),
  }));
}

/** The folders below a layer whose index.ts is a package entry point, from tsup.config.ts's text. */
export function entryFolders(tsupConfig) {
  // Read as text: the config is TypeScript, which plain Node does not load, and its entries are
  // string literals naming source files.
  const found = new Set();
  for (const [, folder] of tsupConfig.matchAll(/['"]src\/([\w/.-]+)\/index\.ts['"]/g)) {
    if (folder.includes('/')) found.add(folder);
  }
  return [...found].sort();
}

/** The folder of src/ that `path` belongs to, or undefined for a file outside every folder. */
function folderOf(path, deeper) {
  const parts = path.split('/');
  if (parts[0] !== 'src' || parts.length < 3) return undefined;
  const inside = deeper.filter((folder) => path.startsWith(`src/${folder}/`));
  return inside.sort((a, b) => b.length - a.length)[0] ?? parts[1];
}

/**
 * The folder graph of `modules`: its nodes, and its arrows as sorted `from --> to` lines.
 *
 * A node is a folder that holds a module; an arrow, any import from one folder to another.
 */
export function folderGraph(modules, deeperFolders = []) {
  const folders = new Set();
  const edges = new Set();
  for (const module of modules) {
    const from = folderOf(module.source, deeperFolders);
    if (from === undefined) continue;
    folders.add(from);
    for (const target of module.imports) {
      const to = folderOf(target, deeperFolders);
      if (to !== undefined && to !== from) edges.add(`${from} --> ${to}`);
    }
  }
  const nodes = [...folders].map((folder) => ({ id: basename(folder), folder }));
  nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const [i, node] of nodes.entries()) {
    if (!NODE_ID.test(node.id)) {
      throw new Error(`src/${node.folder}/ cannot be a mermaid node id: rename it or the map`);
    }
    if (i > 0 && nodes[i - 1].id === node.id) {
      throw new Error(`src/${nodes[i - 1].folder}/ and src/${node.folder}/ share the node id`);
    }
  }
  const idOf = new Map(nodes.map((node) => [node.folder, node.id]));
  const lines = [...edges].map((edge) => {
    const [from, to] = edge.split(' --> ');
    return `${idOf.get(from)} --> ${idOf.get(to)}`;
  });
  return { nodes, edges: lines.sort() };
}

/** The map of `graph` as a mermaid block, each node labelled from `descriptions`. */
export function renderMap(graph, descriptions = DESCRIPTIONS) {
  const folders = new Set(graph.nodes.map((node) => node.folder));
  const gone = Object.keys(descriptions).filter((folder) => !folders.has(folder));
  if (gone.length > 0) {
    const names = gone.map((folder) => `src/${folder}/`).join(', ');
    throw new Error(`DESCRIPTIONS of scripts/architecture-map.mjs names ${names}: no such folder`);
  }
  const nodes = graph.nodes.map(({ id, folder }) => {
    const description = descriptions[folder];
    const label = id === folder ? id : folder;
    const text = description === undefined ? label : `${label}: ${description}`;
    if (!LABEL.test(text)) throw new Error(`the label of src/${folder}/ is not plain: ${text}`);
    return text === id ? `  ${id}` : `  ${id}[${text}]`;
  });
  const edges = graph.edges.map((edge) => `  ${edge}`);
  return ['```mermaid', 'flowchart TD', ...nodes, ...edges, '```'].join('\n');
}

/** Where the map is in `markdown`: the offsets of the text between the two markers. */
function mapRange(markdown) {
  const begin = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  const repeated = markdown.indexOf(BEGIN, begin + 1) >= 0 || markdown.indexOf(END, end + 1) >= 0;
  if (begin < 0 || end < begin || repeated) {
    throw new Error(`${PAGE} needs one ${BEGIN} followed by one ${END}`);
  }
  return { start: begin + BEGIN.length, end };
}

/** `markdown` with `map` (a block from renderMap) between its markers. */
export function replaceMap(markdown, map) {
  const { start, end } = mapRange(markdown);
  return `${markdown.slice(0, start)}\n${map}\n${markdown.slice(end)}`;
}

/** The `from --> to` lines of a mermaid block, labels of inline nodes left out, sorted. */
function edgesOf(block) {
  const edge = /^\s*(\w+)(?:\[[^\]]*\])?\s*-->\s*(\w+)(?:\[[^\]]*\])?\s*$/;
  const lines = block.split('\n').flatMap((line) => {
    const m = edge.exec(line);
    return m === null ? [] : [`${m[1]} --> ${m[2]}`];
  });
  return [...new Set(lines)].sort();
}

/**
 * How the map between the markers of `markdown` differs from `map`.
 *
 * `missing`: arrows of `map` the page lacks; `extra`: arrows of the page `map` lacks; `current`:
 * whether the page's text is `map` exactly, nodes and labels included.
 */
export function compareMap(markdown, map) {
  const { start, end } = mapRange(markdown);
  const drawn = markdown.slice(start, end);
  const inDoc = new Set(edgesOf(drawn));
  const inCode = new Set(edgesOf(map));
  return {
    missing: [...inCode].filter((edge) => !inDoc.has(edge)),
    extra: [...inDoc].filter((edge) => !inCode.has(edge)),
    current: drawn === `\n${map}\n`,
  };
}

/** The folder graph of the repository at `root`, from its imports and its package entry points. */
export async function architectureGraph(root = ROOT) {
  const tsup = readFileSync(join(root, 'tsup.config.ts'), 'utf8');
  return folderGraph(await srcModules(root), entryFolders(tsup));
}

async function main(argv) {
  const map = renderMap(await architectureGraph());
  const page = join(ROOT, PAGE);
  const markdown = readFileSync(page, 'utf8');
  if (argv.includes('--write')) {
    writeFileSync(page, replaceMap(markdown, map));
    console.log(`${PAGE}: map written`);
  } else if (argv.includes('--check')) {
    const { missing, extra, current } = compareMap(markdown, map);
    if (current) return;
    console.error(
      `${PAGE}: the map differs from the imports of src/ (npm run docs:map redraws it)`,
    );
    for (const edge of missing) console.error(`  missing in the doc: ${edge}`);
    for (const edge of extra) console.error(`  extra in the doc:   ${edge}`);
    if (missing.length + extra.length === 0)
      console.error('  the arrows agree; nodes or labels differ');
    process.exitCode = 1;
  } else {
    console.log(map);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
