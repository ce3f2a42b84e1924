import type { Adjustment, Clawback, ReturnError } from './ReturnOutcome.js';

/** A stored return of an explained transaction. @public */
export interface ExplainedReturn {
  /** Its id. */
  readonly return_id: string;
  /** Its date-time in the engine's zone, `YYYY-MM-DDTHH:mm:ss.SSS`. */
  readonly date: string;
  /** Amount returned, an exact plain decimal text. */
  readonly amount: string;
}

/**
 * What returns did to a transaction (docs/replay.md, explain): its stored returns, what is left,
 * and its payment's cashback now.
 * @public
 */
export interface ReturnsExplanation {
  /** Its stored returns, in the order they were decided (the engine: by date-time, then id). */
  readonly returns: readonly ExplainedReturn[];
  /** Sum returned, an exact plain decimal text (`0` when none). */
  readonly returned: string;
  /** The transaction's amount less `returned`, an exact plain decimal text. */
  readonly left: string;
  /** Its payment's cashback now, after the returns; absent when it has no payment. */
  readonly cashback?: number;
  /**
   * The revision of the offer that decided its payment (docs/concepts.md, Offer revisions); absent
   * when it has no payment.
   */
  readonly offer_revision?: number;
  /**
   * The adjustments the returns made, in order: from `explain`, which decides the returns, and
   * from the engine's, which reads the payment's history.
   */
  readonly adjustments?: readonly Adjustment[];
  /** The clawbacks of returns that arrived once the payment was confirmed, in order. */
  readonly clawbacks?: readonly Clawback[];
  /** The returns that adjusted nothing, in order (`explain` only, as `adjustments`). */
  readonly errors?: readonly ReturnError[];
}
