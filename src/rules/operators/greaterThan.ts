import { anyFact, numberValue } from '../_internals/builtInChecks.js';
import { numberValidator } from '../_internals/numberValidator.js';
import type { Operator } from '../Operator.js';

/**
 * `greaterThan`: fact `>` value, when the fact passes json-rules-engine's number validator
 * (false for `undefined`).
 */
export const greaterThanOperator: Operator = Object.freeze({
  name: 'greaterThan',
  checkFact: anyFact,
  checkValue: numberValue('greaterThan'),
  // JavaScript's own coercion, as json-rules-engine: a numeric string fact compares as a number.
  evaluate: (factValue: unknown, value: unknown): boolean =>
    numberValidator(factValue) && (factValue as number) > (value as number),
});
