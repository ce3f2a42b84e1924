import type { OutboxEvent } from '../../store/records.js';
import { budgetNeverPaysPastItsAmount } from './budgetNeverPaysPastItsAmount.js';
import { cashbackWithinBounds } from './cashbackWithinBounds.js';
import { clawbacksWithinCashback } from './clawbacksWithinCashback.js';
import { confirmedPaymentNeverChanges } from './confirmedPaymentNeverChanges.js';
import { type ConfirmablePayments, eachPaymentConfirmedOnce } from './eachPaymentConfirmedOnce.js';
import { fixedWithinAmount } from './fixedWithinAmount.js';
import { marginalWithinTopRate } from './marginalWithinTopRate.js';
import { netCashbackIsSumOfPayments } from './netCashbackIsSumOfPayments.js';
import { oneOutcomePerTransaction } from './oneOutcomePerTransaction.js';
import { outOfScopeNeverPaid } from './outOfScopeNeverPaid.js';
import { paymentDateIsDayPlusWarranty } from './paymentDateIsDayPlusWarranty.js';
import { returnedWithinAmount } from './returnedWithinAmount.js';
import { returnNeverRaisesPayment } from './returnNeverRaisesPayment.js';
import type { InvariantOptions, ReplayInput, ReplayOutput } from './types.js';
import { withinBudgets } from './withinBudgets.js';
import { withinCustomerCaps } from './withinCustomerCaps.js';

export type { ConfirmablePayments } from './eachPaymentConfirmedOnce.js';
export type { InvariantOptions, ReplayInput, ReplayOutput } from './types.js';

/**
 * Checks of a replay result against its input, for your own properties. Each throws an `Error`
 * describing the first violation and returns nothing otherwise.
 * @example
 * ```ts
 * const check: Invariants['all'] = invariants.all;
 * check(scenario, replay(scenario, { scale: 3 }), { scale: 3 });
 * ```
 * @public
 */
export interface Invariants {
  /** Every submitted transaction has exactly one outcome, keyed by its id or `#<index>`. */
  readonly oneOutcomePerTransaction: (input: ReplayInput, result: ReplayOutput) => void;
  /**
   * Cashback above 0, at most `max_cashback` and what the reward pays on the amount
   * (`amount × discount / 100` for a discount) plus what rounding may add.
   */
  readonly cashbackWithinBounds: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /** A fixed reward never pays more than the purchase (beyond what rounding may add). */
  readonly fixedWithinAmount: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /** `marginal` tiers never pay more than their top rate on the whole amount. */
  readonly marginalWithinTopRate: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /** A transaction out of its offer's merchant, scope or channels is never paid by it. */
  readonly outOfScopeNeverPaid: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /** `payment_date` = the transaction's day + the offer's `warranty`. */
  readonly paymentDateIsDayPlusWarranty: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /** Adjustments follow the payments' cashback and never raise it (docs/concepts.md, Returns). */
  readonly returnNeverRaisesPayment: (input: ReplayInput, result: ReplayOutput) => void;
  /** `summary.returns.netCashback` is the sum of the payments' current cashback. */
  readonly netCashbackIsSumOfPayments: (input: ReplayInput, result: ReplayOutput) => void;
  /** One outcome per return; the returns stored of a transaction never exceed its amount. */
  readonly returnedWithinAmount: (input: ReplayInput, result: ReplayOutput) => void;
  /**
   * A confirmed payment never changes: every adjustment comes from a return that arrived
   * (`reported_at`, else `date`) before its payment day began (docs/concepts.md, Late returns).
   */
  readonly confirmedPaymentNeverChanges: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /**
   * Each clawback is of a payment confirmed when its return arrived, and a payment's clawbacks
   * never add up to more than its cashback.
   */
  readonly clawbacksWithinCashback: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /**
   * For every offer with a `budget` and every period of it, the payments' current cashback adds up
   * to at most the budget rounded down to `scale` (docs/concepts.md, Funding controls).
   */
  readonly withinBudgets: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /**
   * For every offer with a `customer_cap`, customer and period, the payments' current cashback
   * adds up to at most the cap's `amount` and those above 0 number at most its `count`.
   */
  readonly withinCustomerCaps: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /**
   * A budget never pays more than its amount, clawbacks included: for every offer with a
   * `budget` and every period of it, what its payments paid out on their payment days adds up to
   * at most the budget rounded down to `scale`.
   */
  readonly budgetNeverPaysPastItsAmount: (
    input: ReplayInput,
    result: ReplayOutput,
    options?: InvariantOptions,
  ) => void;
  /** The five invariants of returns above (the last two read the time zone of `options`). */
  readonly returns: (input: ReplayInput, result: ReplayOutput, options?: InvariantOptions) => void;
  /** All of the above. */
  readonly all: (input: ReplayInput, result: ReplayOutput, options?: InvariantOptions) => void;
  /**
   * Each payment confirmed once, for an engine: one partner's `cashback.confirmed` outbox events
   * confirm no payment twice, in events of 1 to 1,000 records of one payment day; with
   * `expected`, exactly the payments above 0 due by `expected.through`, with their final
   * cashback (docs/concepts.md, Confirmation). Not part of `all`: it reads events, not a replay.
   */
  readonly eachPaymentConfirmedOnce: (
    events: readonly Pick<OutboxEvent, 'type' | 'payload'>[],
    expected?: ConfirmablePayments,
  ) => void;
}

/**
 * The invariants every replay keeps (docs/concepts.md). Pass the options `replay` was given.
 * @example
 * ```ts
 * fc.assert(fc.property(scenarioArbitrary(), (scenario) => {
 *   invariants.all(scenario, replay(scenario));
 * }));
 * ```
 * @public
 */
export const invariants: Invariants = Object.freeze({
  oneOutcomePerTransaction,
  cashbackWithinBounds,
  fixedWithinAmount,
  marginalWithinTopRate,
  outOfScopeNeverPaid,
  paymentDateIsDayPlusWarranty,
  returnNeverRaisesPayment,
  netCashbackIsSumOfPayments,
  returnedWithinAmount,
  withinBudgets,
  withinCustomerCaps,
  confirmedPaymentNeverChanges,
  clawbacksWithinCashback,
  budgetNeverPaysPastItsAmount,
  eachPaymentConfirmedOnce,
  returns(input: ReplayInput, result: ReplayOutput, options: InvariantOptions = {}): void {
    returnNeverRaisesPayment(input, result);
    netCashbackIsSumOfPayments(input, result);
    returnedWithinAmount(input, result);
    confirmedPaymentNeverChanges(input, result, options);
    clawbacksWithinCashback(input, result, options);
  },
  all(input: ReplayInput, result: ReplayOutput, options: InvariantOptions = {}): void {
    oneOutcomePerTransaction(input, result);
    cashbackWithinBounds(input, result, options);
    fixedWithinAmount(input, result, options);
    marginalWithinTopRate(input, result, options);
    outOfScopeNeverPaid(input, result, options);
    paymentDateIsDayPlusWarranty(input, result, options);
    returnNeverRaisesPayment(input, result);
    netCashbackIsSumOfPayments(input, result);
    returnedWithinAmount(input, result);
    withinBudgets(input, result, options);
    withinCustomerCaps(input, result, options);
    confirmedPaymentNeverChanges(input, result, options);
    clawbacksWithinCashback(input, result, options);
    budgetNeverPaysPastItsAmount(input, result, options);
  },
});
