import { checkEachItem } from '../_internals/listSide.js';
import type { Decorator } from './Decorator.js';

/**
 * `someValue:`: the decorated operator holds for some item of the value, a literal list
 * whose items are checked as the operator's value (`someValue:equal` needs items of the fact's
 * type).
 */
export const someValueDecorator: Decorator = Object.freeze<Decorator>({
  name: 'someValue',
  check: (inner) => checkEachItem('someValue', 'value', inner),
  evaluate: (next) => (factValue, value) =>
    (value as readonly unknown[]).some((item) => next(factValue, item)),
});
