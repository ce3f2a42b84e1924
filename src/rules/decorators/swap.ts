import type { Decorator } from './Decorator.js';

/**
 * `swap:`: the decorated operator with its operands exchanged, so `swap:contains` on a literal
 * list asks whether the list holds the fact.
 */
export const swapDecorator: Decorator = Object.freeze<Decorator>({
  name: 'swap',
  check: (inner) => (fact, value) => {
    const issue = inner(value, fact);
    if (issue === undefined) return undefined;
    // Keep the issue on the side of the condition it is about.
    return { at: issue.at === 'operator' ? 'value' : 'operator', message: issue.message };
  },
  evaluate: (next) => (factValue, value) => next(value, factValue),
});
