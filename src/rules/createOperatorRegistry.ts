import { describeValue } from './_internals/describe.js';
import { builtInOperators } from './builtInOperators.js';
import type { Operator } from './Operator.js';

/**
 * The operators conditions may use, by name. Immutable: `with` returns a new registry.
 * @public
 */
export interface OperatorRegistry {
  /**
   * Looks an operator up.
   * @param name - the operator's name.
   * @returns the operator, or `undefined` when none has that name.
   */
  get(name: string): Operator | undefined;
  /** Every registered name, built-ins first, then in registration order. */
  readonly names: readonly string[];
  /**
   * Adds operators.
   * @param operators - operators whose names are not taken yet.
   * @returns a new registry with them; this one is unchanged.
   * @throws Error when a name is already registered, or given twice.
   */
  with(...operators: readonly Operator[]): OperatorRegistry;
}

function registry(byName: ReadonlyMap<string, Operator>): OperatorRegistry {
  const names = Object.freeze([...byName.keys()]);
  return Object.freeze({
    get: (name: string) => byName.get(name),
    names,
    with: (...operators: readonly Operator[]) => {
      const next = new Map(byName);
      for (const operator of operators) {
        if (typeof operator?.name !== 'string' || typeof operator.evaluate !== 'function') {
          throw new TypeError('Not an operator; build one with defineOperator');
        }
        if (next.has(operator.name)) {
          throw new Error(`Operator "${operator.name}" is already registered`);
        }
        next.set(operator.name, operator);
      }
      return registry(next);
    },
  });
}

const builtIns = registry(new Map(builtInOperators.map((operator) => [operator.name, operator])));

/**
 * Creates the registry of operators conditions may use: the built-ins plus `custom`.
 * @param custom - operators to add, typically from `defineOperator`.
 * @returns the registry, to pass to `compileCondition`.
 * @throws Error when a custom operator's name is taken (built-in names included); TypeError when
 *   `custom` is not a list, or holds something `defineOperator` did not build.
 * @public
 */
export function createOperatorRegistry(custom: readonly Operator[] = []): OperatorRegistry {
  if (!Array.isArray(custom)) {
    throw new TypeError(
      `createOperatorRegistry takes a list of operators, got ${describeValue(custom)}`,
    );
  }
  return builtIns.with(...custom);
}
