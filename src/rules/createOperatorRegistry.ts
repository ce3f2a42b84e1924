import { describeValue } from './_internals/describe.js';
import { builtInOperators } from './builtInOperators.js';
import type { Operator } from './Operator.js';

/** The operators of a registry by name: set once, by the class below, for `registeredOperator`. */
let operatorsOf: (registry: OperatorRegistry) => ReadonlyMap<string, Operator>;
/** Makes a registry of these operators: set once, by the class below. */
let registryOf: (byName: ReadonlyMap<string, Operator>) => OperatorRegistry;

/**
 * The operators conditions may use, by name: what `createOperatorRegistry`
 * (`cashback-engine/rules`) builds and the options' `operators` take. Immutable. What it shows is
 * the names; the operators it holds are read by the condition compiler alone, so that a caller
 * that passes a registry along names no operator type (docs/decisions.md, Package).
 * @public
 */
export class OperatorRegistry {
  /** Every registered name, built-ins first, then in registration order. */
  readonly names: readonly string[];
  readonly #byName: ReadonlyMap<string, Operator>;

  private constructor(byName: ReadonlyMap<string, Operator>) {
    this.#byName = byName;
    this.names = Object.freeze([...byName.keys()]);
    Object.freeze(this);
  }

  static {
    operatorsOf = (registry) => registry.#byName;
    registryOf = (byName) => new OperatorRegistry(byName);
  }
}

/**
 * The operator a registry holds under a name.
 * @param registry - a registry from `createOperatorRegistry`
 * @param name - the operator's name
 * @returns the operator, or `undefined` when none has that name
 */
export function registeredOperator(registry: OperatorRegistry, name: string): Operator | undefined {
  return operatorsOf(registry).get(name);
}

/**
 * `operators` as an option gives it: a registry, or nothing.
 * @param operators - the option
 * @returns it
 * @throws TypeError when it is something else than a registry from `createOperatorRegistry`
 */
export function operatorsOption(operators: unknown): OperatorRegistry | undefined {
  if (operators === undefined || operators instanceof OperatorRegistry) return operators;
  throw new TypeError(
    `operators must be a registry from createOperatorRegistry, got ${describeValue(operators)}`,
  );
}

const builtIns = new Map(builtInOperators.map((operator) => [operator.name, operator]));

/**
 * Creates the registry of operators conditions may use: the built-ins plus `custom`.
 * @param custom - operators to add, typically from `defineOperator`.
 * @returns the registry, to pass as the `operators` option.
 * @throws Error when a custom operator's name is taken (built-in names included) or given twice;
 *   TypeError when `custom` is not a list, or holds something `defineOperator` did not build.
 * @public
 */
export function createOperatorRegistry(custom: readonly Operator[] = []): OperatorRegistry {
  if (!Array.isArray(custom)) {
    throw new TypeError(
      `createOperatorRegistry takes a list of operators, got ${describeValue(custom)}`,
    );
  }
  const byName = new Map(builtIns);
  for (const operator of custom) {
    if (typeof operator?.name !== 'string' || typeof operator.evaluate !== 'function') {
      throw new TypeError('Not an operator; build one with defineOperator');
    }
    if (byName.has(operator.name)) {
      throw new Error(`Operator "${operator.name}" is already registered`);
    }
    byName.set(operator.name, operator);
  }
  return registryOf(byName);
}
