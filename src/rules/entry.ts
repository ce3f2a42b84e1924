// cashback-engine/rules: for rule authors who write operators of their own (docs/concepts.md, The
// condition language): `defineOperator`, `createOperatorRegistry` and the types of operators,
// operands and facts; the condition tree an offer's `conditions` holds; and how one comparison
// fared (`LeafResult`, as `explain` reports it). `cashback-engine` names `OperatorRegistry`, which
// its options take, and `LeafResult`; this entry is the one a rule author needs.

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
export { createOperatorRegistry, OperatorRegistry } from './createOperatorRegistry.js';
export { defineOperator, type OperatorDefinition } from './defineOperator.js';
export type { FactType } from './facts.js';
export type { LeafResult } from './LeafResult.js';
export type { OperandType, OperandValue, OperandValues } from './OperandType.js';
export type { FactOperand, FactSideType, Operator, ValueOperand } from './Operator.js';
