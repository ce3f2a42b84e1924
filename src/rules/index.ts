/**
 * The condition language: JSON conditions compatible with json-rules-engine, type-checked
 * against the fact schema and compiled into closures (see docs/concepts.md, The condition language).
 */

export { builtInOperators } from './builtInOperators.js';
export type { ConditionIssueCode } from './ConditionError.js';
export { ConditionError } from './ConditionError.js';
export type { CompiledCondition } from './compileCondition.js';
export { checkCondition, compileCondition } from './compileCondition.js';
export type { Condition } from './condition.js';
export {
  createOperatorRegistry,
  OperatorRegistry,
  operatorsOption,
  registeredOperator,
} from './createOperatorRegistry.js';
export { defineOperator } from './defineOperator.js';
export type {
  CustomerFacts,
  FactContext,
  FactType,
  HistoryFacts,
  TransactionFacts,
} from './facts.js';
export type { LeafResult } from './LeafResult.js';
