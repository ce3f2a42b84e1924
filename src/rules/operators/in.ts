import { anyFact, listOfFactType } from '../_internals/builtInChecks.js';

import type { Operator } from '../Operator.js';

/**
 * `in`: the value list holds the fact (`indexOf`, so by `===`).
 */
export const inOperator: Operator = Object.freeze({
  name: 'in',
  checkFact: anyFact,
  checkValue: listOfFactType('in'),
  evaluate: (factValue: unknown, value: unknown): boolean =>
    (value as readonly unknown[]).indexOf(factValue) > -1,
});
