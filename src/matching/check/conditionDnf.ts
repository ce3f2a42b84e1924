import { resolveFact } from '../../rules/_internals/resolveFact.js';
import { builtInOperators, type OperatorRegistry, registeredOperator } from '../../rules/index.js';
import { and, type Dnf, FALSE, FREE, not, numberAtom, or, TRUE } from './conditionAlgebra.js';

type Node = Readonly<Record<string, unknown>>;

const BUILT_INS = new Map(builtInOperators.map((operator) => [operator.name, operator]));
const NUMERIC: Readonly<Record<string, { lo?: boolean; hi?: boolean; inclusive: boolean }>> = {
  lessThan: { hi: true, inclusive: false },
  lessThanInclusive: { hi: true, inclusive: true },
  greaterThan: { lo: true, inclusive: false },
  greaterThanInclusive: { lo: true, inclusive: true },
};

function builtIn(operators: OperatorRegistry | undefined, name: string) {
  const operator = BUILT_INS.get(name);
  // A registry built by createOperatorRegistry always holds the built-ins under their names.
  return operator !== undefined &&
    (operators === undefined || registeredOperator(operators, name) === operator)
    ? operator.name
    : undefined;
}

/** One comparison of a built-in operator with a literal, as a DNF on its fact. */
function comparison(fact: string, type: string, operator: string, value: unknown): Dnf {
  if (operator === 'in' || operator === 'notIn') {
    if (!Array.isArray(value)) return FREE;
    let found: Dnf = FALSE;
    for (const item of value) found = or(found, comparison(fact, type, 'equal', item));
    return operator === 'in' ? found : not(found);
  }
  if (type === 'string') {
    if (typeof value !== 'string') return FREE;
    if (operator === 'equal') return [[{ kind: 'string', fact, oneOf: [value], except: [] }]];
    if (operator === 'notEqual')
      return [[{ kind: 'string', fact, oneOf: undefined, except: [value] }]];
    return FREE; // a string fact compared as a number, json-rules-engine's coercion
  }
  if (typeof value !== 'number') return FREE;
  if (operator === 'equal')
    return numberAtom(fact, { lo: value, loIn: true, hi: value, hiIn: true });
  if (operator === 'notEqual') return not(comparison(fact, type, 'equal', value));
  const bound = NUMERIC[operator];
  if (bound === undefined) return FREE;
  return bound.lo
    ? numberAtom(fact, { lo: value, loIn: bound.inclusive })
    : numberAtom(fact, { hi: value, hiIn: bound.inclusive });
}

/** A decorated operator: `not:`, `someValue:` and `everyValue:` are modelled; others are free. */
function decorated(
  fact: string,
  type: string,
  name: string,
  value: unknown,
  operators: OperatorRegistry | undefined,
): Dnf {
  const base = builtIn(operators, name);
  if (base !== undefined) return comparison(fact, type, base, value);
  if (operators !== undefined && registeredOperator(operators, name) !== undefined) return FREE; // a custom operator
  const colon = name.indexOf(':');
  if (colon <= 0) return FREE;
  const [decorator, rest] = [name.slice(0, colon), name.slice(colon + 1)];
  if (decorator === 'not') return not(decorated(fact, type, rest, value, operators));
  if ((decorator === 'someValue' || decorator === 'everyValue') && Array.isArray(value)) {
    let result: Dnf = decorator === 'someValue' ? FALSE : TRUE;
    for (const item of value) {
      const one = decorated(fact, type, rest, item, operators);
      result = decorator === 'someValue' ? or(result, one) : and(result, one);
    }
    return result;
  }
  return FREE;
}

/** What the translation needs: the registry, and a filter that drops impossible terms early. */
export interface DnfContext {
  readonly operators: OperatorRegistry | undefined;
  readonly prune: (dnf: Dnf) => Dnf;
}

function leaf(node: Node, operators: OperatorRegistry | undefined): Dnf {
  const { fact, path, operator, value } = node;
  if (typeof fact !== 'string' || typeof operator !== 'string') return FREE;
  // A value read from another fact is not modelled.
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, 'fact')) return FREE;
  const resolved = resolveFact(fact, typeof path === 'string' ? path : undefined);
  if ('at' in resolved) return FREE;
  return decorated(resolved.name, resolved.type, operator, value, operators);
}

/**
 * A compiled offer's `conditions` (its JSON, already checked) as a DNF over its facts.
 * @throws TooLarge when the DNF would exceed its bound
 */
export function conditionDnf(node: unknown, c: DnfContext): Dnf {
  if (typeof node !== 'object' || node === null) return FREE;
  const n = node as Node;
  if (Array.isArray(n.all)) {
    let result: Dnf = TRUE;
    for (const child of n.all) result = c.prune(and(result, conditionDnf(child, c)));
    return result;
  }
  if (Array.isArray(n.any)) {
    let result: Dnf = FALSE;
    for (const child of n.any) result = or(result, conditionDnf(child, c));
    return result;
  }
  if (Object.hasOwn(n, 'not')) return c.prune(not(conditionDnf(n.not, c)));
  return c.prune(leaf(n, c.operators));
}
