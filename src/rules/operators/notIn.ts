import { anyFact, listOfFactType } from '../_internals/builtInChecks.js';

import type { Operator } from '../Operator.js';

/**
 * `notIn`: the value list does not hold the fact (`indexOf`, so by `===`).
 */
export const notInOperator: Operator = Object.freeze({
  name: 'notIn',
  checkFact: anyFact,
  checkValue: listOfFactType('notIn'),
  evaluate: (factValue: unknown, value: unknown): boolean =>
    (value as readonly unknown[]).indexOf(factValue) === -1,
});
