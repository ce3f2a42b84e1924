import type { ConditionIssueCode } from '../ConditionError.js';
import { FACT_SCHEMA, type FactSchema, type FactType } from '../facts.js';
import { parsePath } from './parsePath.js';

/**
 * A fact and path checked against `FACT_SCHEMA`: the top-level fact, the property steps below
 * it, and the type found there.
 */
export interface ResolvedFact {
  readonly fact: string;
  readonly steps: readonly string[];
  /** Dotted name of fact and steps, for messages. */
  readonly name: string;
  readonly type: FactType;
}

/** Why a fact and path do not resolve, and which of the two is to blame. */
export interface FactProblem {
  readonly at: 'fact' | 'path';
  readonly code: ConditionIssueCode;
  readonly message: string;
}

const known = (schema: FactSchema) => Object.keys(schema).join(', ');

/**
 * Resolves a (possibly dotted) fact name and an optional path against `FACT_SCHEMA`.
 */
export function resolveFact(fact: string, path: string | undefined): ResolvedFact | FactProblem {
  const fromFact = fact.split('.');
  const fromPath = path === undefined ? [] : parsePath(path);
  if (fromPath === undefined) {
    const message = `${JSON.stringify(path)} is not a JSONPath of plain member steps, such as "$.location.city"`;
    return { at: 'path', code: 'invalid_path', message };
  }
  const segments = [...fromFact, ...fromPath];
  let node: FactType | FactSchema = FACT_SCHEMA;
  for (const [index, segment] of segments.entries()) {
    const at = index < fromFact.length ? 'fact' : 'path';
    const parent = segments.slice(0, index).join('.');
    if (typeof node === 'string') {
      const message = `${parent} is ${node === 'string' ? 'a string' : 'a number'}, it has no property "${segment}"`;
      return { at, code: 'unknown_property', message };
    }
    if (!Object.hasOwn(node, segment)) {
      if (index === 0) {
        const message = `unknown fact "${segment}"; facts are ${known(node)}`;
        return { at, code: 'unknown_fact', message };
      }
      const message = `${parent} has no property "${segment}"; it has ${known(node)}`;
      return { at, code: 'unknown_property', message };
    }
    node = node[segment] as FactType | FactSchema;
  }
  const name = segments.join('.');
  if (typeof node !== 'string') {
    const message = `${name} is an object; compare one of its properties: ${known(node)}`;
    return { at: path === undefined ? 'fact' : 'path', code: 'not_a_value', message };
  }
  return { fact: fromFact[0] ?? '', steps: segments.slice(1), name, type: node };
}
