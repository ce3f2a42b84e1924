/**
 * The rules of `checkOffers`, one file each in this folder (docs/testing.md, `cashback check`):
 * - `invalid_offer`: the offer fails validation (one finding per problem, with its path);
 * - `duplicate_offer_id`: two offers share an `offer_id`;
 * - `inactive`: `active` is false, so it never pays;
 * - `expired`: `valid_to` is before `today`;
 * - `activation_unseen`: the offer requires activation but is not listed in active offers
 *   (inactive, or `valid_to` before `today`), so customers cannot find it to activate;
 * - `zero_max_cashback`: `max_cashback` rounds down to 0 at the engine's scale;
 * - `zero_funding`: a budget's or a customer cap's amount rounds down to 0 at the engine's scale,
 *   so every purchase fails that check;
 * - `budget_below_payment`: the budget is below the largest single payment the offer can make;
 * - `cap_unreachable`: the customer cap's amount never limits a payment, or its count is never
 *   reached (docs/concepts.md, Funding controls);
 * - `tier_unreachable`: a tier of a tiered reward never changes what is paid (above every amount,
 *   below `min_amount` in `whole` mode, past `max_cashback` in `marginal` mode);
 * - `fixed_covers_purchase`: a fixed reward at or above `min_amount` (or with none): a purchase
 *   earns its whole amount back;
 * - `eligible_below_minimum`: `max_eligible_amount` below `min_amount`: every purchase earns the
 *   same;
 * - `scope_unmatched`: no transaction of a given sample is at the offer's merchant or in its scope;
 * - `condition_never_true`: the conditions are false for every transaction the offer's other
 *   fields let through;
 * - `always_loses`: another offer at the merchant (merchant-bound, or scoped and listing it)
 *   qualifies whenever this merchant-bound one does and pays at least as much, with a lower
 *   `offer_id`, so this one is never selected;
 * - `merchant_name_variants`: merchant names that differ only by case, spacing or Unicode form
 *   and so meet the same merchants;
 * - `overlap`: offers at one merchant valid on the same days, and which pays more for which
 *   amounts.
 * @public
 */
export type OfferCheckRule =
  | 'invalid_offer'
  | 'duplicate_offer_id'
  | 'inactive'
  | 'expired'
  | 'activation_unseen'
  | 'zero_max_cashback'
  | 'zero_funding'
  | 'budget_below_payment'
  | 'cap_unreachable'
  | 'tier_unreachable'
  | 'fixed_covers_purchase'
  | 'eligible_below_minimum'
  | 'scope_unmatched'
  | 'condition_never_true'
  | 'always_loses'
  | 'merchant_name_variants'
  | 'overlap';

/** How serious a finding is: an `error` makes `cashback check` exit with 1. @public */
export type FindingLevel = 'error' | 'warning' | 'info';

/** An offer a finding is about. @public */
export interface FindingOffer {
  /** Its position in the offers array, from 0. */
  readonly index: number;
  /** Its `offer_id`, when it has a usable one. */
  readonly offer_id?: number;
}

/** One finding of `checkOffers`. @public */
export interface OfferFinding {
  /** The rule that fired. */
  readonly rule: OfferCheckRule;
  /** How serious it is. */
  readonly level: FindingLevel;
  /** The offers it is about; the first is the one at fault, where there is one. */
  readonly offers: readonly FindingOffer[];
  /** Why, for people. */
  readonly message: string;
  /** Path of the field inside the offer, e.g. `conditions.all[0].value`, where one is at fault. */
  readonly path?: string;
}
