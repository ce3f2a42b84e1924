import type {
  ActivationErrorCode,
  CustomerErrorCode,
  ItemError,
  TransactionErrorCode,
} from '../../model/errors.js';
import type { Payment, TransactionError } from '../outcome.js';
import type { Adjustment, Clawback, ReturnError } from '../returns/ReturnOutcome.js';
import type { ReplaySummary } from '../SummaryBuilder.js';

/** What the whole replay of a data set returns. @public */
export interface ReplayResult {
  /** Id of the replay as one processing event. */
  readonly event_id: string;
  /** When the replay ran, from `clock`; absent without a clock. */
  readonly generated_at?: string;
  /** Payments, in transaction order. */
  readonly payments: readonly Payment[];
  /** One error per transaction that earns nothing, in transaction order. */
  readonly errors: readonly TransactionError[];
  /** Payments adjusted by returns, in the order the returns were decided (empty without returns). */
  readonly adjustments: readonly Adjustment[];
  /**
   * Late returns' clawbacks (docs/concepts.md, Late returns), in the order the returns were decided
   * (empty without returns).
   */
  readonly clawbacks: readonly Clawback[];
  /** One error per return that adjusts nothing, in the order decided (empty without returns). */
  readonly returnErrors: readonly ReturnError[];
  /** Customers, activations and history transactions that were not applied. */
  readonly rejected: {
    readonly customers: readonly ItemError<CustomerErrorCode>[];
    readonly activations: readonly ItemError<ActivationErrorCode>[];
    readonly history: readonly ItemError<TransactionErrorCode>[];
  };
  /** Counts by outcome and by offer. */
  readonly summary: ReplaySummary;
}
