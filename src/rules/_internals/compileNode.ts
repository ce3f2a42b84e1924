import { type Compilation, checkKeys, type Evaluate, NEVER, report } from './Compilation.js';
import { combine } from './combine.js';
import { compileLeaf } from './compileLeaf.js';
import { describeValue } from './describe.js';
import { isRecord } from './isRecord.js';

const BOOLEAN_KEYS = ['all', 'any', 'not'] as const;
const LEAF_KEYS = ['fact', 'path', 'operator', 'value'];
const EXPECTED =
  'exactly one of "all", "any", "not", or a comparison ("fact", "operator", "value")';

function compileList(
  c: Compilation,
  node: Readonly<Record<string, unknown>>,
  path: string,
  key: 'all' | 'any',
): Evaluate {
  const list = node[key];
  if (!Array.isArray(list)) {
    report(c, 'invalid_type', `${path}.${key}`, `"${key}" must be a list of conditions`);
    return NEVER;
  }
  if (key === 'any' && list.length === 0) {
    const message =
      '"any" needs at least one condition (json-rules-engine makes an empty "any" true)';
    report(c, 'empty_any', `${path}.any`, message);
  }
  const parts = list.map((child: unknown, index) =>
    compileNode(c, child, `${path}.${key}[${index}]`),
  );
  return combine(key, parts);
}

/**
 * Compiles one node of a condition tree, reporting every issue found in it and below it.
 */
export function compileNode(c: Compilation, node: unknown, path: string): Evaluate {
  if (!isRecord(node)) {
    report(
      c,
      'invalid_node',
      path,
      `a condition is an object with ${EXPECTED}, not ${describeValue(node)}`,
    );
    return NEVER;
  }
  const kinds: string[] = BOOLEAN_KEYS.filter((key) => Object.hasOwn(node, key));
  if (LEAF_KEYS.some((key) => Object.hasOwn(node, key))) kinds.push('a comparison');
  const [kind] = kinds;
  if (kinds.length !== 1 || kind === undefined) {
    if (kinds.length === 0 && Object.hasOwn(node, 'condition')) {
      const message = "references to json-rules-engine's shared conditions are not supported";
      report(c, 'unsupported', `${path}.condition`, message);
    } else {
      const found = kinds.length === 0 ? 'none' : kinds.join(', ');
      report(c, 'invalid_node', path, `a condition needs ${EXPECTED}; found ${found}`);
    }
    return NEVER;
  }
  if (kind === 'a comparison') return compileLeaf(c, node, path);
  checkKeys(c, node, [kind, 'name', 'priority'], path);
  if (kind !== 'not') return compileList(c, node, path, kind as 'all' | 'any');
  if (Array.isArray(node.not)) {
    report(c, 'invalid_type', `${path}.not`, '"not" takes one condition, not a list');
    return NEVER;
  }
  const inner = compileNode(c, node.not, `${path}.not`);
  return (ctx) => !inner(ctx);
}
