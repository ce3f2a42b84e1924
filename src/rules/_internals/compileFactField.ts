import { type Compilation, report } from './Compilation.js';
import { type ResolvedFact, resolveFact } from './resolveFact.js';

/**
 * Checks the `fact` and `path` properties of a leaf or a fact reference against the schema.
 * @returns the resolved fact, or `undefined` after reporting why not.
 */
export function compileFactField(
  c: Compilation,
  node: Readonly<Record<string, unknown>>,
  path: string,
): ResolvedFact | undefined {
  const { fact, path: jsonPath } = node;
  let ok = true;
  if (!Object.hasOwn(node, 'fact')) {
    report(c, 'missing_key', `${path}.fact`, 'a comparison needs a "fact"');
    ok = false;
  } else if (typeof fact !== 'string') {
    report(c, 'invalid_type', `${path}.fact`, '"fact" must be a string, a fact name');
    ok = false;
  }
  if (jsonPath !== undefined && typeof jsonPath !== 'string') {
    report(c, 'invalid_type', `${path}.path`, '"path" must be a string, a JSONPath');
    ok = false;
  }
  if (!ok) return undefined;
  const resolved = resolveFact(fact as string, jsonPath as string | undefined);
  if ('at' in resolved) {
    report(c, resolved.code, `${path}.${resolved.at}`, resolved.message);
    return undefined;
  }
  if (resolved.fact === 'history') c.usesHistory = true;
  return resolved;
}
