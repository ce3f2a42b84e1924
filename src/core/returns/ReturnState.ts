import type { CompiledOffer } from '../../matching/offer.js';
import type { WallClock } from '../../model/dateTime.js';
import type { ExactAmount } from '../../model/money.js';
import type { ResolvedOptions } from '../../model/options.js';

/**
 * The payment of a returned transaction, as it stands before the batch.
 * @public
 */
export interface ReturnPaymentState {
  /**
   * The revision of the offer that paid it (docs/concepts.md, Offer revisions): its cashback is
   * worked out again with these terms, whatever the offer is now.
   */
  readonly offer: CompiledOffer;
  /** That revision's number. */
  readonly offerRevision: number;
  /** Current cashback (after earlier returns), an exact plain decimal text such as `0.62`. */
  readonly cashback: string;
  /** Payment day, `YYYY-MM-DD`. */
  readonly paymentDate: string;
  /** What its clawbacks took so far, exact text (`0` when none). */
  readonly clawedBack: string;
  /**
   * Whether a store already confirmed it (the engine's `confirmDue`): confirmed at any arrival,
   * whatever the arrival's day. Absent: only the arrival's day says.
   */
  readonly confirmed?: boolean;
}

/**
 * A stored transaction that a return names, with what has been returned of it and its payment.
 * @public
 */
export interface ReturnableTransaction {
  /** Its id. */
  readonly transactionId: string;
  /** Its customer. */
  readonly customerId: string;
  /** Its date-time in the engine's zone. */
  readonly when: WallClock;
  /** Its amount. */
  readonly amount: ExactAmount;
  /** Sum of its stored returns, an exact plain decimal text (`0` when none). */
  readonly returned: string;
  /** Its payment, if it has one. */
  readonly payment: ReturnPaymentState | undefined;
}

/**
 * What {@link decideReturns} reads: the options and one partner's stored state. Lookups are plain
 * functions, so that the engine backs them with what it loaded for a batch and a replay with maps.
 * @public
 */
export interface ReturnState {
  /** Resolved options: `scale` and `rounding` of cashback. */
  readonly options: ResolvedOptions;
  /** Whether a return with this id is already stored for the partner. */
  hasReturn(returnId: string): boolean;
  /** The partner's stored transaction with this id, or `undefined` when none is stored. */
  transaction(transactionId: string): ReturnableTransaction | undefined;
}
