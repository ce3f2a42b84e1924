import type { Operator } from './Operator.js';
import { containsOperator } from './operators/contains.js';
import { doesNotContainOperator } from './operators/doesNotContain.js';
import { equalOperator } from './operators/equal.js';
import { greaterThanOperator } from './operators/greaterThan.js';
import { greaterThanInclusiveOperator } from './operators/greaterThanInclusive.js';
import { inOperator } from './operators/in.js';
import { lessThanOperator } from './operators/lessThan.js';
import { lessThanInclusiveOperator } from './operators/lessThanInclusive.js';
import { notEqualOperator } from './operators/notEqual.js';
import { notInOperator } from './operators/notIn.js';

/**
 * json-rules-engine 7.x's default operators, with the same semantics, plus a compile-time type
 * check for each.
 * @public
 */
export const builtInOperators: readonly Operator[] = Object.freeze([
  equalOperator,
  notEqualOperator,
  lessThanOperator,
  lessThanInclusiveOperator,
  greaterThanOperator,
  greaterThanInclusiveOperator,
  inOperator,
  notInOperator,
  containsOperator,
  doesNotContainOperator,
]);
