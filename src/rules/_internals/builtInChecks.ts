import type { FactOperand, Operator, ValueOperand } from '../Operator.js';
import { describeType, describeValue } from './describe.js';
import { definedType, isFiniteNumber, itemType, literalHasType } from './operandTypes.js';

type CheckFact = Operator['checkFact'];
type CheckValue = Operator['checkValue'];

function describeOperand(value: ValueOperand): string {
  return value.kind === 'literal'
    ? describeValue(value.value)
    : `${value.name} (${describeType(value.type)})`;
}

/**
 * Any fact of the schema will do.
 */
export const anyFact: CheckFact = () => undefined;

/**
 * The value must have the fact's type (`equal`, `notEqual`): json-rules-engine compares with
 * `===`, so a number fact never equals a string.
 */
export function sameTypeAsFact(operator: string): CheckValue {
  return (value, fact) => {
    const type = definedType(fact.type);
    const fits =
      value.kind === 'literal'
        ? literalHasType(type, value.value)
        : definedType(value.type) === type;
    if (fits) return undefined;
    return `${operator} compares ${fact.name} (${describeType(fact.type)}) with ${describeType(type)}, not ${describeOperand(value)}`;
  };
}

/**
 * The value must be a number (`lessThan` and the other numeric operators). A string fact is
 * allowed, compared as json-rules-engine does (`"5411" < 6000`), but never with a string.
 */
export function numberValue(operator: string): CheckValue {
  return (value, fact) => {
    const fits =
      value.kind === 'literal' ? isFiniteNumber(value.value) : definedType(value.type) === 'number';
    if (fits) return undefined;
    return `${operator} compares ${fact.name} with a number, not ${describeOperand(value)}`;
  };
}

/**
 * The value must be a literal list of values of the fact's type (`in`, `notIn`).
 */
export function listOfFactType(operator: string): CheckValue {
  return (value, fact) => {
    const type = definedType(fact.type);
    const expected = `${operator} needs a list of ${type}s to look ${fact.name} up in`;
    if (value.kind === 'fact') return `${expected}, not ${describeOperand(value)}`;
    if (!Array.isArray(value.value)) return `${expected}, not ${describeValue(value.value)}`;
    const bad = value.value.findIndex((element: unknown) => !literalHasType(type, element));
    if (bad === -1) return undefined;
    return `${expected}; element [${bad}] is ${describeValue(value.value[bad])}`;
  };
}

/**
 * The fact side must be a list (`contains`, `doesNotContain`). No fact of the schema is one, and
 * json-rules-engine makes these operators false on anything else; a literal list stands there
 * only under `swap:` (`swap:contains` on `["Paris", "Lyon"]`).
 */
export function listFact(operator: string): CheckFact {
  return (fact: FactOperand) =>
    itemType(fact.type) !== undefined
      ? undefined
      : `${operator} needs a fact that is a list, but ${fact.name} is ${describeType(fact.type)} (json-rules-engine would always make this false)`;
}

/**
 * The value must have the type of the fact side's items (`contains`, `doesNotContain`).
 */
export function itemOfFact(operator: string): CheckValue {
  return (value, fact) => {
    const type = itemType(fact.type) ?? 'string';
    const fits =
      value.kind === 'literal'
        ? literalHasType(type, value.value)
        : definedType(value.type) === type;
    if (fits) return undefined;
    return `${operator} looks for ${describeType(type)} in ${fact.name}, not ${describeOperand(value)}`;
  };
}
