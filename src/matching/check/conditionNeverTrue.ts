import { type OfferCheck, ref } from './CheckContext.js';
import { type Dnf, TooLarge } from './conditionAlgebra.js';
import { conditionDnf } from './conditionDnf.js';
import { factDomains } from './factDomains.js';
import { termPossible } from './satisfiable.js';

/**
 * `condition_never_true`: no transaction the offer's other fields let through (merchant,
 * `min_amount`, `age`, `gender`, `audience`) makes its conditions true. Decided exactly for
 * comparisons of built-in operators (and `not:`, `someValue:`, `everyValue:`) with literals, on
 * each fact's type and range (an hour is a whole number 0–23); any other comparison counts as
 * possibly true, so the rule reports only what it proves. Facts are taken as independent.
 */
export const conditionNeverTrue: OfferCheck = (ctx) =>
  ctx.offers.flatMap((offer) => {
    const compiled = offer.compiled;
    if (compiled?.condition === undefined) return [];
    const domains = factDomains(compiled);
    const prune = (dnf: Dnf) => dnf.filter((term) => termPossible(term, domains));
    let dnf: Dnf;
    try {
      dnf = conditionDnf(compiled.offer.conditions, { operators: ctx.options.operators, prune });
    } catch (error) {
      if (error instanceof TooLarge) return []; // too many alternatives to decide
      throw error;
    }
    if (dnf.length > 0) return [];
    return [
      {
        rule: 'condition_never_true' as const,
        level: 'error' as const,
        offers: [ref(offer)],
        message:
          'the conditions are false for every transaction this offer can see (given its merchant, min_amount, age, gender and audience): it never pays',
        path: 'conditions',
      },
    ];
  });
