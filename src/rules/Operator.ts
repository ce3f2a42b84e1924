import type { FactType } from './facts.js';

/**
 * The type of what stands on the fact side of a comparison: a fact's type, or, under the `swap:`
 * decorator, the type of a literal (a list for `swap:contains` on `["a", "b"]`).
 * @public
 */
export type FactSideType = FactType | 'string[]' | 'number[]';

/** The fact side of a comparison, as the compile-time type check sees it. @public */
export interface FactOperand {
  /**
   * Dotted name of the fact and its path, e.g. `customer.location.city`; under `swap:`, a literal
   * is named by its description (`the string "Paris"`).
   */
  readonly name: string;
  /** Its type: from `FACT_SCHEMA`, or of the literal that stands there under `swap:`. */
  readonly type: FactSideType;
}

/**
 * The value side of a comparison, as the compile-time type check sees it: a literal from the
 * condition, or a reference to a fact whose type is known.
 * @public
 */
export type ValueOperand =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'fact'; readonly name: string; readonly type: FactType };

/**
 * An operator of the condition language. Build one with `defineOperator`; the built-ins are in
 * `builtInOperators`.
 * @public
 */
export interface Operator {
  /** Name used in conditions, e.g. `lessThan`. */
  readonly name: string;
  /**
   * Checks at compile time that the operator applies to this fact.
   * @returns why it does not, or `undefined` when it does.
   */
  readonly checkFact: (fact: FactOperand) => string | undefined;
  /**
   * Checks at compile time that the value fits the operator and the fact (called only when
   * `checkFact` passed).
   * @returns why it does not, or `undefined` when it does.
   */
  readonly checkValue: (value: ValueOperand, fact: FactOperand) => string | undefined;
  /**
   * Decides one comparison. Only `true` counts as true, as in json-rules-engine.
   * @param factValue - the fact's value (may be `undefined` for a `number?` fact).
   * @param value - the literal, or the referenced fact's value.
   */
  readonly evaluate: (factValue: unknown, value: unknown) => boolean;
}
