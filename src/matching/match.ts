import { isBefore, type WallClock } from '../model/dateTime.js';
import { ageOn, formatDay } from '../model/day.js';
import type { ResolvedOptions } from '../model/options.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { CustomerFacts, TransactionFacts } from '../rules/index.js';
import { inAnyBand } from './ageBands.js';
import { type Cashback, compareCashback, computeCashback, isZeroCashback } from './cashback.js';
import { customerFactsOf, factContext, transactionFactsOf } from './facts.js';
import { hasEarlierPurchase, type Purchase } from './history.js';
import { belowMinAmount } from './netCashback.js';
import type { CompiledOffer } from './offer.js';

/**
 * The eligibility checks (docs/concepts.md, Eligibility), in the order they run; the first that fails is the
 * one `explain` reports.
 * @public
 */
export type EligibilityCheck =
  | 'active'
  | 'merchant'
  | 'valid_dates'
  | 'activation'
  | 'age'
  | 'gender'
  | 'min_amount'
  | 'audience'
  | 'conditions';

/** Per-transaction state shared by the checks of every candidate offer. */
export interface MatchInput {
  readonly tx: ParsedTransaction;
  readonly customer: ParsedCustomer;
  /** Whole years on the transaction's day; negative when the day is before the birthday. */
  readonly age: number;
  /** Earlier purchases of the customer at the transaction's merchant; `undefined` when none. */
  readonly purchases: readonly Purchase[] | undefined;
  /** When a customer activated an offer (docs/concepts.md, Activation); absent: nobody did. */
  readonly activation: ActivationLookup | undefined;
  /** Built on first use by a condition. */
  txFacts: TransactionFacts | undefined;
  /** Built on first use by a condition. */
  customerFacts: CustomerFacts | undefined;
}

/**
 * When a customer activated an offer, as wall-clock time in the engine's zone; `undefined` when
 * they did not.
 */
export type ActivationLookup = (customerId: string, offerId: number) => WallClock | undefined;

/** Builds the shared state of one transaction. */
export function matchInput(
  tx: ParsedTransaction,
  customer: ParsedCustomer,
  purchases: readonly Purchase[] | undefined,
  activation?: ActivationLookup,
): MatchInput {
  const age = ageOn(customer.birthYear, customer.birthMonthDay, tx.when.year, tx.when.monthDay);
  return { tx, customer, age, purchases, activation, txFacts: undefined, customerFacts: undefined };
}

/**
 * When the transaction's customer activated the offer, if they did at or before the
 * transaction's date-time; `undefined` otherwise.
 * @param offerId - the offer
 * @param m - the transaction's state
 * @returns the activation's time, or `undefined` when it does not count for this transaction
 */
function activatedBy(offerId: number, m: MatchInput): WallClock | undefined {
  const at = m.activation?.(m.tx.customerId, offerId);
  return at === undefined || isBefore(m.tx.when.seconds, m.tx.when.nanos, at) ? undefined : at;
}

/**
 * The first eligibility check an offer fails for a transaction, or `undefined` when it qualifies.
 * The merchant check is implied by the index (only offers at the transaction's merchant are ever
 * candidates), so it is not repeated here; `explain` makes it for offers passed to it directly.
 */
export function firstFailedCheck(
  offer: CompiledOffer,
  m: MatchInput,
): EligibilityCheck | undefined {
  const tx = m.tx;
  if (!offer.active) return 'active';
  const day = tx.when.day;
  if (day < offer.validFrom || day > offer.validTo) return 'valid_dates';
  if (offer.requiresActivation && activatedBy(offer.offerId, m) === undefined) return 'activation';
  // Before the birthday the customer has no age, and no offer pays, age bands or not
  // (docs/decisions.md, Outcomes).
  if (m.age < 0 || (offer.ageBands.length > 0 && !inAnyBand(offer.ageBands, m.age))) return 'age';
  if (offer.genders.length > 0 && !offer.genders.includes(m.customer.genderKey)) return 'gender';
  if (belowMinAmount(tx.amount, offer)) return 'min_amount';
  if (offer.audience !== 'all') {
    const returning = hasEarlierPurchase(m.purchases, tx.when, offer.lookbackDays);
    if (returning !== (offer.audience === 'returning')) return 'audience';
  }
  if (offer.condition !== undefined) {
    if (m.txFacts === undefined) m.txFacts = transactionFactsOf(tx);
    if (m.customerFacts === undefined) m.customerFacts = customerFactsOf(m.customer, m.age);
    const ctx = factContext(m.txFacts, m.customerFacts, m.purchases, tx, offer.lookbackDays);
    if (!offer.condition.evaluate(ctx)) return 'conditions';
  }
  return undefined;
}

/** What matching decided for one transaction of a known customer. */
export type MatchResult =
  | {
      readonly kind: 'paid';
      readonly offer: CompiledOffer;
      readonly cashback: Cashback;
      readonly paymentDate: string;
    }
  | { readonly kind: 'zero_cashback'; readonly offer: CompiledOffer }
  | {
      readonly kind: 'no_offer';
      readonly candidates: number;
      /** The lowest-id candidate and the check it failed. */
      readonly firstFailure:
        | { readonly offerId: number; readonly check: EligibilityCheck }
        | undefined;
    };

/**
 * Selects the payment for a transaction among the offers at its merchant: the highest cashback
 * as paid, ties to the lowest `offer_id` (candidates come sorted by id, and only a strictly
 * higher cashback replaces the best).
 */
export function matchOffers(
  candidates: readonly CompiledOffer[] | undefined,
  m: MatchInput,
  options: ResolvedOptions,
): MatchResult {
  if (candidates === undefined) return { kind: 'no_offer', candidates: 0, firstFailure: undefined };
  let best: CompiledOffer | undefined;
  let bestCashback: Cashback | undefined;
  let zeroOffer: CompiledOffer | undefined;
  let firstFailure: { offerId: number; check: EligibilityCheck } | undefined;
  for (const offer of candidates) {
    const failure = firstFailedCheck(offer, m);
    if (failure !== undefined) {
      if (firstFailure === undefined) firstFailure = { offerId: offer.offerId, check: failure };
      continue;
    }
    const cashback = computeCashback(m.tx.amount, offer, options);
    if (isZeroCashback(cashback)) {
      if (zeroOffer === undefined) zeroOffer = offer;
    } else if (
      bestCashback === undefined ||
      compareCashback(cashback, bestCashback, options.scale) > 0
    ) {
      best = offer;
      bestCashback = cashback;
    }
  }
  if (best !== undefined && bestCashback !== undefined) {
    return {
      kind: 'paid',
      offer: best,
      cashback: bestCashback,
      paymentDate: formatDay(m.tx.when.day + best.warranty),
    };
  }
  if (zeroOffer !== undefined) return { kind: 'zero_cashback', offer: zeroOffer };
  return { kind: 'no_offer', candidates: candidates.length, firstFailure };
}
