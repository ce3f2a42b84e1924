import type { OperandType } from '../OperandType.js';

/**
 * Describes a literal for an error message: `the string "100"`, `a list`.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'number') return `the number ${String(value)}`;
  if (typeof value === 'boolean') return `the boolean ${String(value)}`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

const TYPE_NAMES: Readonly<Record<OperandType, string>> = {
  string: 'a string',
  number: 'a number',
  'number?': 'a number or undefined',
  boolean: 'a boolean',
  'string[]': 'a list of strings',
  'number[]': 'a list of numbers',
  unknown: 'any value',
};

/**
 * Describes a type for an error message: `a number or undefined`.
 */
export function describeType(type: OperandType): string {
  return TYPE_NAMES[type];
}
