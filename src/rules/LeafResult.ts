/**
 * How one comparison of a condition fared for one transaction, as json-rules-engine reports it
 * per condition: what was compared, and the result.
 * @public
 */
export interface LeafResult {
  /** Where the comparison is in the tree, e.g. `conditions.all[1]`. */
  readonly path: string;
  /** The fact compared, dotted with its path, e.g. `customer.location.city`. */
  readonly fact: string;
  /** The fact's value for this transaction; `undefined` when the fact is missing. */
  readonly factValue: unknown;
  /** The operator as written, decorators included (`not:someValue:equal`). */
  readonly operator: string;
  /** The literal, or the value of the referenced fact. */
  readonly value: unknown;
  /** The referenced fact, dotted, when `value` was read from a fact. */
  readonly valueFact?: string;
  /** The comparison's result, whether or not evaluation reached it. */
  readonly result: boolean;
}
