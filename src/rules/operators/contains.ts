import { anyValue, listFact } from '../_internals/builtInChecks.js';
import type { Operator } from '../Operator.js';

/**
 * `contains`: the fact, a list, holds the value (`indexOf`). json-rules-engine requires an array fact;
 * no fact of the schema is one, so a condition using it never compiles.
 */
export const containsOperator: Operator = Object.freeze({
  name: 'contains',
  checkFact: listFact('contains'),
  checkValue: anyValue,
  evaluate: (factValue: unknown, value: unknown): boolean =>
    Array.isArray(factValue) && factValue.indexOf(value) > -1,
});
