import { anyFact, numberValue } from '../_internals/builtInChecks.js';
import { numberValidator } from '../_internals/numberValidator.js';
import type { Operator } from '../Operator.js';

/**
 * `lessThan`: fact `<` value, when the fact passes json-rules-engine's number validator
 * (false for `undefined`).
 */
export const lessThanOperator: Operator = Object.freeze({
  name: 'lessThan',
  checkFact: anyFact,
  checkValue: numberValue('lessThan'),
  // JavaScript's own coercion, as json-rules-engine: a numeric string fact compares as a number.
  evaluate: (factValue: unknown, value: unknown): boolean =>
    numberValidator(factValue) && (factValue as number) < (value as number),
});
