import { anyFact, sameTypeAsFact } from '../_internals/builtInChecks.js';

import type { Operator } from '../Operator.js';

/**
 * `notEqual`: the fact is `!==` the value (so `undefined` is not equal to anything).
 */
export const notEqualOperator: Operator = Object.freeze({
  name: 'notEqual',
  checkFact: anyFact,
  checkValue: sameTypeAsFact('notEqual'),
  evaluate: (factValue: unknown, value: unknown): boolean => factValue !== value,
});
