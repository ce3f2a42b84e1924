/**
 * What a budget or a cap counts of a payment (docs/concepts.md, Funding controls): its current
 * cashback, after returns, and one payment while that cashback is above 0. This is the rule's one
 * statement in TypeScript: the funding ledger pays and gives back with it, and the memory store
 * recounts with it; the PostgreSQL store's recount says the same in SQL, and the store
 * conformance suite holds the two together ("a recount counts each payment as the rule does").
 *
 * It is generic in the amount so that the ledger keeps its integer units and the memory store its
 * decimals: the rule, not the arithmetic, is what must exist once.
 */

/** The arithmetic the rule needs of an amount type. */
export interface CountedArithmetic<A> {
  /** Whether an amount is 0. */
  isZero(amount: A): boolean;
  /** `a − b`, exactly. */
  minus(a: A, b: A): A;
}

/** What a change of one payment changes in each counter the payment counts in. */
export interface CountedChange<A> {
  /** The change of the sum of current cashback (negative when a return lowers the payment). */
  readonly amount: A;
  /** The change of the number of payments above 0: −1, 0 or +1. */
  readonly count: number;
}

/**
 * What a payment whose current cashback goes from `before` to `after` changes in its counters: a
 * new payment goes from 0, a return lowers it, a recount counts each stored payment from 0.
 * @param before - its cashback before (0 for a payment not counted yet)
 * @param after - its cashback after
 * @param arithmetic - how to compare and subtract amounts of this type
 * @returns the change of the sum and of the count
 */
export function countedChange<A>(
  before: A,
  after: A,
  arithmetic: CountedArithmetic<A>,
): CountedChange<A> {
  const count = (arithmetic.isZero(after) ? 0 : 1) - (arithmetic.isZero(before) ? 0 : 1);
  return { amount: arithmetic.minus(after, before), count };
}
