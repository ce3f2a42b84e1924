import { anyFact, numberValue } from '../_internals/builtInChecks.js';
import { numberValidator } from '../_internals/numberValidator.js';
import type { Operator } from '../Operator.js';

/**
 * `greaterThanInclusive`: fact `>=` value, when the fact passes json-rules-engine's number validator
 * (false for `undefined`).
 */
export const greaterThanInclusiveOperator: Operator = Object.freeze({
  name: 'greaterThanInclusive',
  checkFact: anyFact,
  checkValue: numberValue('greaterThanInclusive'),
  // JavaScript's own coercion, as json-rules-engine: a numeric string fact compares as a number.
  evaluate: (factValue: unknown, value: unknown): boolean =>
    numberValidator(factValue) && (factValue as number) >= (value as number),
});
