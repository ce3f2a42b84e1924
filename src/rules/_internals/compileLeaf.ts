import { DECORATORS } from '../decorators/index.js';
import { type Compilation, checkKeys, type Evaluate, NEVER, report } from './Compilation.js';
import { compileFactField } from './compileFactField.js';
import { createGetter } from './createGetter.js';
import { freezeLiteral } from './freezeLiteral.js';
import { isRecord } from './isRecord.js';
import type { ResolvedFact } from './resolveFact.js';
import { resolveOperator } from './resolveOperator.js';

const LEAF_KEYS = ['fact', 'path', 'operator', 'value', 'name', 'priority'];
const REFERENCE_KEYS = ['fact', 'path'];

type Value =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'fact'; readonly fact: ResolvedFact };

function compileValue(
  c: Compilation,
  node: Readonly<Record<string, unknown>>,
  path: string,
): Value | undefined {
  if (!Object.hasOwn(node, 'value')) {
    report(c, 'missing_key', `${path}.value`, 'a comparison needs a "value"');
    return undefined;
  }
  const { value } = node;
  // json-rules-engine reads any object with its own `fact` as a fact reference.
  if (!isRecord(value) || !Object.hasOwn(value, 'fact')) return { kind: 'literal', value };
  checkKeys(c, value, REFERENCE_KEYS, `${path}.value`);
  const fact = compileFactField(c, value, `${path}.value`);
  return fact && { kind: 'fact', fact };
}

function lookUpOperator(c: Compilation, node: Readonly<Record<string, unknown>>, path: string) {
  const { operator } = node;
  if (!Object.hasOwn(node, 'operator')) {
    report(c, 'missing_key', `${path}.operator`, 'a comparison needs an "operator"');
  } else if (typeof operator !== 'string') {
    report(c, 'invalid_type', `${path}.operator`, '"operator" must be a string, an operator name');
  } else {
    const found = resolveOperator(c.operators, operator);
    if (found) return found;
    const message = `unknown operator "${operator}"; operators are ${c.operators.names.join(', ')}, each may be prefixed by decorators (${[...DECORATORS.keys()].map((d) => `${d}:`).join(', ')})`;
    report(c, 'unknown_operator', `${path}.operator`, message);
  }
  return undefined;
}

/**
 * Compiles a comparison `{ fact, path?, operator, value }` into a closure over pre-built
 * getters, after checking it against the schema and the operator's types.
 */
export function compileLeaf(
  c: Compilation,
  node: Readonly<Record<string, unknown>>,
  path: string,
): Evaluate {
  checkKeys(c, node, LEAF_KEYS, path);
  const fact = compileFactField(c, node, path);
  const operator = lookUpOperator(c, node, path);
  const value = compileValue(c, node, path);
  if (!fact || !operator || !value) return NEVER;

  const valueSide =
    value.kind === 'literal'
      ? value
      : ({ kind: 'fact', name: value.fact.name, type: value.fact.type } as const);
  const issue = operator.check({ kind: 'fact', name: fact.name, type: fact.type }, valueSide);
  if (issue !== undefined) {
    report(c, 'type_mismatch', `${path}.${issue.at}`, issue.message);
    return NEVER;
  }

  const { evaluate } = operator;
  const get = createGetter(fact.fact, fact.steps);
  const name = node.operator as string;
  if (value.kind === 'literal') {
    const literal = freezeLiteral(value.value);
    c.leaves.push((ctx) => {
      const factValue = get(ctx);
      const result = evaluate(factValue, literal) === true;
      return { path, fact: fact.name, factValue, operator: name, value: literal, result };
    });
    return (ctx) => evaluate(get(ctx), literal) === true;
  }
  const getValue = createGetter(value.fact.fact, value.fact.steps);
  const valueFact = value.fact.name;
  c.leaves.push((ctx) => {
    const [factValue, other] = [get(ctx), getValue(ctx)];
    const result = evaluate(factValue, other) === true;
    return { path, fact: fact.name, factValue, operator: name, value: other, valueFact, result };
  });
  return (ctx) => evaluate(get(ctx), getValue(ctx)) === true;
}
