import { describeType, describeValue } from './_internals/describe.js';
import { assertKnownKeys } from './_internals/knownKeys.js';
import { factHasType, literalHasType } from './_internals/operandTypes.js';
import type { OperandType, OperandValue } from './OperandType.js';
import type { Operator } from './Operator.js';

/** What `defineOperator` needs to build an operator. @public */
export interface OperatorDefinition<F extends OperandType, V extends OperandType> {
  /** Name used in conditions; must not be taken in the registry it joins. */
  readonly name: string;
  /**
   * Type the fact must have. A `number?` fact needs `'number?'` (or `'unknown'`), since its
   * value may be `undefined`.
   * @defaultValue `'unknown'`
   */
  readonly factType?: F;
  /**
   * Type the value must have, whether a literal or a fact reference.
   * @defaultValue `'unknown'`
   */
  readonly valueType?: V;
  /** Decides one comparison; only `true` counts as true. */
  readonly evaluate: (factValue: OperandValue<F>, value: OperandValue<V>) => boolean;
}

const DEFINITION_KEYS: readonly string[] = ['name', 'factType', 'valueType', 'evaluate'];

const OPERAND_TYPES: readonly OperandType[] = [
  'string',
  'number',
  'number?',
  'boolean',
  'string[]',
  'number[]',
  'unknown',
];

function operandType(value: unknown, name: string, field: string): OperandType {
  if (value === undefined) return 'unknown';
  if (OPERAND_TYPES.includes(value as OperandType)) return value as OperandType;
  throw new TypeError(
    `Operator "${name}": ${field} must be one of ${OPERAND_TYPES.map((t) => `'${t}'`).join(', ')}, got ${describeValue(value)}`,
  );
}

/**
 * Builds a custom operator whose operand types are checked when conditions compile.
 * @param definition - name, operand types and the comparison.
 * @returns the operator, ready for `createOperatorRegistry`.
 * @throws TypeError for a key the definition does not have (a misspelt `valuetype`), a missing
 *   name or `evaluate`, or an operand type that is not an {@link OperandType}
 * @example
 * ```ts
 * const startsWith = defineOperator({
 *   name: 'startsWith',
 *   factType: 'string',
 *   valueType: 'string',
 *   evaluate: (fact, prefix) => fact.startsWith(prefix),
 * });
 * const operators = createOperatorRegistry([startsWith]);
 * ```
 * @public
 */
export function defineOperator<
  F extends OperandType = 'unknown',
  V extends OperandType = 'unknown',
>(definition: OperatorDefinition<F, V>): Operator {
  assertKnownKeys(definition, DEFINITION_KEYS, 'defineOperator definition');
  const { name, evaluate } = definition ?? {};
  if (typeof name !== 'string' || name === '') throw new TypeError('An operator needs a name');
  if (typeof evaluate !== 'function') {
    throw new TypeError(`Operator "${name}" needs an evaluate function`);
  }
  const factType = operandType(definition.factType, name, 'factType');
  const valueType = operandType(definition.valueType, name, 'valueType');
  const operator: Operator = {
    name,
    checkFact: (fact) =>
      factHasType(factType, fact.type)
        ? undefined
        : `${name} takes ${describeType(factType)} as its fact, but ${fact.name} is ${describeType(fact.type)}`,
    checkValue: (value) => {
      if (value.kind === 'fact') {
        return factHasType(valueType, value.type)
          ? undefined
          : `${name} takes ${describeType(valueType)} as its value, but ${value.name} is ${describeType(value.type)}`;
      }
      return literalHasType(valueType, value.value)
        ? undefined
        : `${name} takes ${describeType(valueType)} as its value, not ${describeValue(value.value)}`;
    },
    // The compile-time checks above guarantee the operand types the definition declared.
    evaluate: evaluate as (factValue: unknown, value: unknown) => boolean,
  };
  return Object.freeze(operator);
}
