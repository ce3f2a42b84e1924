import { itemOfFact, listFact } from '../_internals/builtInChecks.js';
import type { Operator } from '../Operator.js';

/**
 * `doesNotContain`: the fact, a list, does not hold the value (`indexOf`). json-rules-engine requires an array
 * fact; no fact of the schema is one, so only a literal list under `swap:` compiles.
 */
export const doesNotContainOperator: Operator = Object.freeze({
  name: 'doesNotContain',
  checkFact: listFact('doesNotContain'),
  checkValue: itemOfFact('doesNotContain'),
  evaluate: (factValue: unknown, value: unknown): boolean =>
    Array.isArray(factValue) && factValue.indexOf(value) === -1,
});
