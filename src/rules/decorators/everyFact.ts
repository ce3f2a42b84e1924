import { checkEachItem } from '../_internals/listSide.js';
import type { Decorator } from './Decorator.js';

/**
 * `everyFact:`: the decorated operator holds for every item of the fact side, a list
 * (false when it is not a list, as in json-rules-engine). No fact of the schema is a list, so
 * only a literal list under `swap:` compiles.
 */
export const everyFactDecorator: Decorator = Object.freeze<Decorator>({
  name: 'everyFact',
  check: (inner) => checkEachItem('everyFact', 'fact', inner),
  evaluate: (next) => (factValue, value) =>
    Array.isArray(factValue) && factValue.every((item: unknown) => next(item, value)),
});
