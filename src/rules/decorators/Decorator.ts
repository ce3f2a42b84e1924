import type { SideCheck } from '../_internals/Side.js';

/** The decorated operator's comparison, called by a decorator. */
type Next = (factValue: unknown, value: unknown) => boolean;

/**
 * One of json-rules-engine 7's operator decorators: the prefix of an operator name such as
 * `not:` in `not:equal`, with its semantics and how it changes the operands' types.
 */
export interface Decorator {
  /** The prefix without its colon, e.g. `someValue`. */
  readonly name: string;
  /** Type-checks the sides, given the check of the operator it decorates. */
  readonly check: (inner: SideCheck) => SideCheck;
  /** Decides one comparison, given the operator it decorates. */
  readonly evaluate: (next: Next) => Next;
}
