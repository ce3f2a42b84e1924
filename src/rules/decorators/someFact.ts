import { checkEachItem } from '../_internals/listSide.js';
import type { Decorator } from './Decorator.js';

/**
 * `someFact:`: the decorated operator holds for some item of the fact side, a list
 * (false when it is not a list, as in json-rules-engine). No fact of the schema is a list, so
 * only a literal list under `swap:` compiles.
 */
export const someFactDecorator: Decorator = Object.freeze<Decorator>({
  name: 'someFact',
  check: (inner) => checkEachItem('someFact', 'fact', inner),
  evaluate: (next) => (factValue, value) =>
    Array.isArray(factValue) && factValue.some((item: unknown) => next(item, value)),
});
