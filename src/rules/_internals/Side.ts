import type { FactOperand, FactSideType, ValueOperand } from '../Operator.js';
import { describeValue } from './describe.js';
import { isFiniteNumber } from './operandTypes.js';

/**
 * One side of a comparison while an operator's decorators are type-checked: a fact of the schema
 * or a literal. `swap:` exchanges the sides, so a literal may stand on the fact's side.
 */
export type Side = ValueOperand;

/** Where a type issue lies: on the comparison's operator (the fact side) or its value. */
export interface SideIssue {
  readonly at: 'operator' | 'value';
  readonly message: string;
}

/** Checks a fact side and a value side against an operator (decorated or not). */
export type SideCheck = (fact: Side, value: Side) => SideIssue | undefined;

function literalType(value: unknown): FactSideType | undefined {
  if (typeof value === 'string') return 'string';
  if (isFiniteNumber(value)) return 'number';
  if (!Array.isArray(value) || value.length === 0) return undefined;
  if (value.every((item) => typeof item === 'string')) return 'string[]';
  if (value.every(isFiniteNumber)) return 'number[]';
  return undefined;
}

/**
 * The fact operand a side stands for: a fact as is, a literal by the type of its value (a string,
 * a number, or a non-empty list of either).
 * @returns the operand, or why the literal cannot stand on the fact's side.
 */
export function asFactOperand(side: Side): FactOperand | string {
  if (side.kind === 'fact') return { name: side.name, type: side.type };
  const type = literalType(side.value);
  if (type === undefined)
    return `${describeValue(side.value)} cannot stand on the fact's side; only a string, a number or a non-empty list of either can`;
  const name = Array.isArray(side.value)
    ? `the list ${JSON.stringify(side.value)}`
    : describeValue(side.value);
  return { name, type };
}
