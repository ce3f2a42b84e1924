import { cashbackWithinBounds } from './cashbackWithinBounds.js';
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
  /** The three invariants of returns above. */
  readonly returns: (input: ReplayInput, result: ReplayOutput) => void;
  /** All of the above. */
  readonly all: (input: ReplayInput, result: ReplayOutput, options?: InvariantOptions) => void;
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
  returns(input: ReplayInput, result: ReplayOutput): void {
    returnNeverRaisesPayment(input, result);
    netCashbackIsSumOfPayments(input, result);
    returnedWithinAmount(input, result);
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
  },
});
