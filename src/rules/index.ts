/**
 * The condition language: JSON conditions compatible with json-rules-engine, type-checked
 * against the fact schema and compiled into closures (see docs/concepts.md, The condition language).
 */

export { builtInOperators } from './builtInOperators.js';
export type { ConditionIssue, ConditionIssueCode } from './ConditionError.js';
export { ConditionError } from './ConditionError.js';
export type { CompiledCondition } from './compileCondition.js';
export { checkCondition, compileCondition } from './compileCondition.js';
export type {
  AllCondition,
  AnyCondition,
  Condition,
  ConditionMetadata,
  ConditionValue,
  FactReference,
  JsonValue,
  LeafCondition,
  NotCondition,
} from './condition.js';
export {
  createOperatorRegistry,
  OperatorRegistry,
  operatorsOption,
  registeredOperator,
} from './createOperatorRegistry.js';
export { defineOperator, type OperatorDefinition } from './defineOperator.js';
export type {
  CustomerFacts,
  FactContext,
  FactType,
  HistoryFacts,
  TransactionFacts,
} from './facts.js';
export type { LeafResult } from './LeafResult.js';
export type { OperandType, OperandValue, OperandValues } from './OperandType.js';
export type { FactOperand, FactSideType, Operator, ValueOperand } from './Operator.js';
