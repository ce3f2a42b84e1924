import type { Decorator } from './Decorator.js';

/** `not:`: the negation of the decorated operator, with the same operand types. */
export const notDecorator: Decorator = Object.freeze<Decorator>({
  name: 'not',
  check: (inner) => inner,
  evaluate: (next) => (factValue, value) => !next(factValue, value),
});
