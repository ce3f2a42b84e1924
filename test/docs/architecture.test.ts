/**
 * The map of docs/architecture.md ("Layers") is drawn from the imports of src/ by
 * scripts/architecture-map.mjs (`npm run docs:map`): here it must be the one the code draws
 * today, and the script's parts are tried on a made-up graph so that a difference cannot go
 * unreported.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Module {
  readonly source: string;
  readonly imports: readonly string[];
}
interface Graph {
  readonly nodes: readonly { readonly id: string; readonly folder: string }[];
  readonly edges: readonly string[];
}
interface Comparison {
  readonly missing: readonly string[];
  readonly extra: readonly string[];
  readonly current: boolean;
}
const script = (await import(join(root, 'scripts', 'architecture-map.mjs'))) as {
  architectureGraph: (root?: string) => Promise<Graph>;
  entryFolders: (tsupConfig: string) => string[];
  folderGraph: (modules: readonly Module[], deeperFolders?: readonly string[]) => Graph;
  renderMap: (graph: Graph, descriptions?: Record<string, string>) => string;
  replaceMap: (markdown: string, map: string) => string;
  compareMap: (markdown: string, map: string) => Comparison;
};
const { architectureGraph, entryFolders, folderGraph, renderMap, replaceMap, compareMap } = script;

/** Every .ts file under `dir`, as a path from the repository root with `/` separators. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the map of docs/architecture.md', () => {
  let graph: Graph;
  beforeAll(async () => {
    graph = await architectureGraph(root);
  }, 60_000);

  it('is the one the imports of src/ draw (npm run docs:map redraws it)', () => {
    const page = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    const { missing, extra, current } = compareMap(page, renderMap(graph));
    expect({ missingInTheDoc: missing, extraInTheDoc: extra }).toEqual({
      missingInTheDoc: [],
      extraInTheDoc: [],
    });
    expect(current, 'the arrows agree, but nodes or labels differ').toBe(true);
  });

  it('has a node for every top-level folder of src/, and postgres apart from store', () => {
    const layers = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const folders = graph.nodes.map((node) => node.folder);
    expect(folders).toEqual(expect.arrayContaining([...layers, 'store/postgres']));
    expect(graph.edges).toContain('postgres --> store');
  });

  it('draws an arrow for every `import type` of another folder, as the lint counts them', () => {
    // Read from the sources' text, apart from dependency-cruiser: a config that dropped type-only
    // imports would drop them from the map and from the lint alike.
    const deeper = graph.nodes.map((node) => node.folder).filter((f) => f.includes('/'));
    const folderOf = (path: string): string | undefined => {
      const own = deeper.find((folder) => path.startsWith(`src/${folder}/`));
      return own ?? (path.split('/').length > 2 ? path.split('/')[1] : undefined);
    };
    const idOf = new Map(graph.nodes.map((node) => [node.folder, node.id]));
    const typeImports = new Set<string>();
    for (const file of sources('src')) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const [, spec] of text.matchAll(/\b(?:import|export) type\b[^;]*?from '(\.[^']+)'/g)) {
        const from = folderOf(file);
        const to = folderOf(posix.join(dirname(file), spec ?? ''));
        if (from !== undefined && to !== undefined && from !== to) {
          typeImports.add(`${idOf.get(from)} --> ${idOf.get(to)}`);
        }
      }
    }
    expect(typeImports.size).toBeGreaterThan(0);
    expect(graph.edges).toEqual(expect.arrayContaining([...typeImports]));
  });
});

describe('the map script, on a made-up graph', () => {
  const modules: Module[] = [
    { source: 'src/a/one.ts', imports: ['src/a/two.ts', 'src/b/three.ts', 'src/b/three.ts'] },
    { source: 'src/a/two.ts', imports: ['node_modules/zod/index.d.cts', 'fs'] },
    { source: 'src/b/three.ts', imports: ['src/c/deep/four.ts', 'src/a/two.ts'] },
    { source: 'src/c/deep/four.ts', imports: ['src/c/five.ts', 'src/c/deep/six.ts'] },
    { source: 'src/c/deep/six.ts', imports: [] },
    { source: 'src/c/five.ts', imports: [] },
    { source: 'src/index.ts', imports: ['src/a/one.ts', 'src/c/five.ts'] },
  ];
  const graph = folderGraph(modules, ['c/deep']);
  const descriptions = { a: 'the first', 'c/deep': 'an adapter' };
  const map = renderMap(graph, descriptions);
  const page = (drawn: string): string =>
    `# Made up\n\nBefore.\n\n<!-- map:begin -->\n${drawn}\n<!-- map:end -->\n\nAfter.\n`;

  it('draws one arrow per pair of folders, none inside a folder or from a file directly in src/', () => {
    expect(graph.nodes).toEqual([
      { id: 'a', folder: 'a' },
      { id: 'b', folder: 'b' },
      { id: 'c', folder: 'c' },
      { id: 'deep', folder: 'c/deep' },
    ]);
    expect(graph.edges).toEqual(['a --> b', 'b --> a', 'b --> deep', 'deep --> c']);
  });

  it('draws the same bytes whatever order the imports come in', () => {
    const shuffled = [...modules]
      .reverse()
      .map((module) => ({ ...module, imports: [...module.imports].reverse() }));
    expect(renderMap(folderGraph(shuffled, ['c/deep']), descriptions)).toBe(map);
  });

  it('labels a folder below a layer with its path, and a folder without a description by name', () => {
    expect(map).toContain('  deep[c/deep: an adapter]\n');
    expect(map).toContain('  a[a: the first]\n');
    expect(map).toContain('  b\n');
  });

  it('passes a page whose map is identical', () => {
    expect(compareMap(page(map), map)).toEqual({ missing: [], extra: [], current: true });
  });

  it('reports an arrow the page lacks as missing in the doc', () => {
    const drawn = map.replace('  b --> deep\n', '');
    expect(compareMap(page(drawn), map)).toEqual({
      missing: ['b --> deep'],
      extra: [],
      current: false,
    });
  });

  it('reports an arrow the imports do not draw as extra in the doc', () => {
    const drawn = map.replace('  deep --> c\n', '  deep --> c\n  c --> a\n');
    expect(compareMap(page(drawn), map)).toEqual({
      missing: [],
      extra: ['c --> a'],
      current: false,
    });
  });

  it('reports a map whose arrows agree but whose nodes or labels differ as not current', () => {
    const drawn = map.replace('a[a: the first]', 'a[a: renamed]');
    expect(compareMap(page(drawn), map)).toEqual({ missing: [], extra: [], current: false });
  });

  it('writes the map between the markers and leaves the rest of the page as it was', () => {
    const stale = page('```mermaid\nflowchart TD\n  a --> c\n```');
    const written = replaceMap(stale, map);
    expect(written).toBe(page(map));
    expect(replaceMap(written, map)).toBe(written);
  });

  it('fails on a page without one pair of markers', () => {
    expect(() => compareMap('# No map\n', map)).toThrow(/map:begin/);
    expect(() => replaceMap(`${page(map)}${page(map)}`, map)).toThrow(/map:begin/);
  });

  it('fails when a description names a folder that no longer exists', () => {
    expect(() => renderMap(graph, { ...descriptions, gone: 'moved away' })).toThrow(/src\/gone\//);
  });

  it('fails when two folders would share a node id', () => {
    const clash = [{ source: 'src/deep/x.ts', imports: ['src/c/deep/four.ts'] }, ...modules];
    expect(() => folderGraph(clash, ['c/deep'])).toThrow(/share the node id/);
  });

  it('finds the folders below a layer that tsup.config.ts builds as entry points', () => {
    const config = `entry: { index: 'src/index.ts', store: 'src/store/entry.ts', http: 'src/http/index.ts', postgres: 'src/store/postgres/index.ts' }`;
    expect(entryFolders(config)).toEqual(['store/postgres']);
  });
});
