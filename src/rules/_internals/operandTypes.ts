import type { OperandType } from '../OperandType.js';
import type { FactSideType } from '../Operator.js';

/** Whether a value is a finite number. */
export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Whether a literal from a condition has the type. Numbers must be finite: JSON has no `NaN`.
 */
export function literalHasType(type: OperandType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return isFiniteNumber(value);
    case 'number?':
      return value === undefined || isFiniteNumber(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((element) => typeof element === 'string');
    case 'number[]':
      return Array.isArray(value) && value.every(isFiniteNumber);
    case 'unknown':
      return true;
  }
}

/**
 * Whether every value of a fact of type `fact` is a value of `type`.
 */
export function factHasType(type: OperandType, fact: FactSideType): boolean {
  if (type === 'unknown' || type === fact) return true;
  return type === 'number?' && fact === 'number';
}

/**
 * The type of a fact side's defined values: `number?` is `number`.
 */
export function definedType(fact: FactSideType): Exclude<FactSideType, 'number?'> {
  return fact === 'number?' ? 'number' : fact;
}

/**
 * The type of the items of a list on the fact side, or `undefined` when it is not a list.
 */
export function itemType(fact: FactSideType): 'string' | 'number' | undefined {
  if (fact === 'string[]') return 'string';
  return fact === 'number[]' ? 'number' : undefined;
}
