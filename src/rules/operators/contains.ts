import { itemOfFact, listFact } from '../_internals/builtInChecks.js';
import type { Operator } from '../Operator.js';

/**
 * `contains`: the fact, a list, holds the value (`indexOf`). json-rules-engine requires an array
 * fact; no fact of the schema is one, so only a literal list under `swap:` compiles.
 */
export const containsOperator: Operator = Object.freeze({
  name: 'contains',
  checkFact: listFact('contains'),
  checkValue: itemOfFact('contains'),
  evaluate: (factValue: unknown, value: unknown): boolean =>
    Array.isArray(factValue) && factValue.indexOf(value) > -1,
});
