import { checkEachItem } from '../_internals/listSide.js';
import type { Decorator } from './Decorator.js';

/**
 * `everyValue:`: the decorated operator holds for every item of the value, a literal list
 * whose items are checked as the operator's value (`someValue:equal` needs items of the fact's
 * type).
 */
export const everyValueDecorator: Decorator = Object.freeze<Decorator>({
  name: 'everyValue',
  check: (inner) => checkEachItem('everyValue', 'value', inner),
  evaluate: (next) => (factValue, value) =>
    (value as readonly unknown[]).every((item) => next(factValue, item)),
});
