import { anyFact, sameTypeAsFact } from '../_internals/builtInChecks.js';

import type { Operator } from '../Operator.js';

/**
 * `equal`: the fact is `===` the value.
 */
export const equalOperator: Operator = Object.freeze({
  name: 'equal',
  checkFact: anyFact,
  checkValue: sameTypeAsFact('equal'),
  evaluate: (factValue: unknown, value: unknown): boolean => factValue === value,
});
