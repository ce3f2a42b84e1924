import type { OperandType } from '../defineOperator.js';
import type { FactType } from '../facts.js';

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
export function factHasType(type: OperandType, fact: FactType): boolean {
  if (type === 'unknown' || type === fact) return true;
  return type === 'number?' && fact === 'number';
}

/**
 * The type of a fact's defined values: `number?` is `number`.
 */
export function definedType(fact: FactType): 'string' | 'number' {
  return fact === 'string' ? 'string' : 'number';
}
