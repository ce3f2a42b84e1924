import { isBefore, type WallClock } from '../model/dateTime.js';
import { ageOn, formatDay } from '../model/day.js';
import type { ResolvedOptions } from '../model/options.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction } from '../model/parseTransaction.js';
import type { CustomerFacts, TransactionFacts } from '../rules/index.js';
import { inAnyBand } from './ageBands.js';
import { type Cashback, compareCashback, computeCashback, isZeroCashback } from './cashback.js';
import { customerFactsOf, factContext, transactionFactsOf } from './facts.js';
import { isNothingLeft, remainder, type SpentLookup } from './funding.js';
import { periodStart } from './fundingPeriod.js';
import { hasEarlierPurchase, type Purchase } from './history.js';
import { belowMinAmount } from './netCashback.js';
import type { CompiledOffer, FundingLimit } from './offer.js';
import { inScope } from './scope.js';

/**
 * The eligibility checks (docs/concepts.md, Eligibility), in the order they run; the first that fails is the
 * one `explain` reports.
 * @public
 */
export type EligibilityCheck =
  | 'active'
  | 'scope'
  | 'channel'
  | 'valid_dates'
  | 'activation'
  | 'age'
  | 'gender'
  | 'min_amount'
  | 'audience'
  | 'conditions'
  | 'customer_cap'
  | 'budget';

/** The earlier purchases of a customer in one scope, under the scope's `historyKey`. */
export interface ScopePurchases {
  readonly key: string;
  readonly list: readonly Purchase[];
}

/** Per-transaction state shared by the checks of every candidate offer. */
export interface MatchInput {
  readonly tx: ParsedTransaction;
  readonly customer: ParsedCustomer;
  /** Whole years on the transaction's day; negative when the day is before the birthday. */
  readonly age: number;
  /**
   * Earlier purchases of the customer at the transaction's merchant, for merchant-bound offers
   * that read them; `undefined` when none.
   */
  readonly purchases: readonly Purchase[] | undefined;
  /**
   * Earlier purchases of the customer in each scope that holds the transaction, by the scope's
   * `historyKey`, for scoped offers that read them (docs/concepts.md, Scopes); `undefined` when none.
   */
  readonly scopePurchases: readonly ScopePurchases[] | undefined;
  /** When a customer activated an offer (docs/concepts.md, Activation); absent: nobody did. */
  readonly activation: ActivationLookup | undefined;
  /** What budgets and caps spent (docs/concepts.md, Funding controls); absent: nothing. */
  readonly spent: SpentLookup | undefined;
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
  spent?: SpentLookup,
  scopePurchases?: readonly ScopePurchases[],
): MatchInput {
  const age = ageOn(customer.birthYear, customer.birthMonthDay, tx.when.year, tx.when.monthDay);
  return {
    tx,
    customer,
    age,
    purchases,
    scopePurchases,
    activation,
    spent,
    txFacts: undefined,
    customerFacts: undefined,
  };
}

/**
 * The earlier purchases an offer's `audience` and `history` facts read: at the transaction's
 * merchant for a merchant-bound offer, anywhere in its scope for a scoped one.
 * @param offer - the offer
 * @param m - the transaction's state
 * @returns the purchases, if any
 */
export function purchasesOf(offer: CompiledOffer, m: MatchInput): readonly Purchase[] | undefined {
  if (offer.scope === undefined) return m.purchases;
  // A transaction is in few scopes that read history: a short list, searched.
  const scoped = m.scopePurchases;
  if (scoped === undefined) return undefined;
  for (const s of scoped) if (s.key === offer.historyKey) return s.list;
  return undefined;
}

/**
 * Whether a transaction is in an offer's scope (the check `scope`): at its merchant for a
 * merchant-bound offer; by name, id or category and not excluded for a scoped one.
 * @param offer - the offer
 * @param tx - the transaction
 * @returns whether it is
 */
export function offerHolds(offer: CompiledOffer, tx: ParsedTransaction): boolean {
  const scope = offer.scope;
  return scope === undefined
    ? offer.merchantKey === tx.merchantKey
    : inScope(scope, tx.merchantKey, tx.merchant.id, tx.merchant.category_code);
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
 * The first eligibility check before `customer_cap` and `budget` (see `fundingRoom`) that an offer
 * fails for a transaction, or `undefined` when it passes them all.
 * For a merchant-bound offer the check `scope` is implied by the index (only offers at the
 * transaction's merchant are ever candidates), so it is not repeated here; a scoped offer found
 * by its merchant id or category code may still exclude the merchant's name. `explain` makes the
 * whole check for offers passed to it directly.
 */
export function firstFailedCheck(
  offer: CompiledOffer,
  m: MatchInput,
): Exclude<EligibilityCheck, 'customer_cap' | 'budget'> | undefined {
  const tx = m.tx;
  if (!offer.active) return 'active';
  if (offer.scope !== undefined && !offerHolds(offer, tx)) return 'scope';
  const channels = offer.channels;
  if (channels !== undefined && (tx.channel === undefined || !channels.includes(tx.channel))) {
    return 'channel';
  }
  const day = tx.when.day;
  if (day < offer.validFrom || day > offer.validTo) return 'valid_dates';
  if (offer.requiresActivation && activatedBy(offer.offerId, m) === undefined) return 'activation';
  // Before the birthday the customer has no age, and no offer pays, age bands or not
  // (docs/decisions.md, Outcomes).
  if (m.age < 0 || (offer.ageBands.length > 0 && !inAnyBand(offer.ageBands, m.age))) return 'age';
  if (offer.genders.length > 0 && !offer.genders.includes(m.customer.genderKey)) return 'gender';
  if (belowMinAmount(tx.amount, offer)) return 'min_amount';
  if (offer.audience !== 'all') {
    const returning = hasEarlierPurchase(purchasesOf(offer, m), tx.when, offer.lookbackDays);
    if (returning !== (offer.audience === 'returning')) return 'audience';
  }
  if (offer.condition !== undefined) {
    if (m.txFacts === undefined) m.txFacts = transactionFactsOf(tx);
    if (m.customerFacts === undefined) m.customerFacts = customerFactsOf(m.customer, m.age);
    const purchases = purchasesOf(offer, m);
    const ctx = factContext(m.txFacts, m.customerFacts, purchases, tx, offer.lookbackDays);
    if (!offer.condition.evaluate(ctx)) return 'conditions';
  }
  return undefined;
}

/**
 * What a funded offer leaves for one transaction (docs/concepts.md, Funding controls): its
 * customer's cap and its budget in the transaction's period, checked in that order.
 */
export interface FundingRoom {
  /** The check that fails (nothing left, or the cap's count reached), if one does. */
  readonly failed: 'customer_cap' | 'budget' | undefined;
  /** The smallest remainder of the cap's amount and the budget; absent when neither has one. */
  readonly room: Cashback | undefined;
  /** What is left of the cap's amount, when it has one and was read. */
  readonly capLeft: Cashback | undefined;
  /** Payments the cap's count still allows, when it has one and was read. */
  readonly countLeft: number | undefined;
  /** What is left of the budget, when it has one and was read. */
  readonly budgetLeft: Cashback | undefined;
}

/**
 * The checks `customer_cap` and `budget` of an offer that passed every other check, and what the
 * cashback as paid may be at most: each remainder rounded down to `scale`. A remainder of 0, or
 * a count reached, fails the check; so does a budget with `on_exhaust: 'skip'` whose remainder is
 * below the cashback the cap leaves (docs/concepts.md, Budget exhaustion).
 * @param offer - a funded offer (`offer.budget` or `offer.customerCap` set)
 * @param m - the transaction's state
 * @param options - scale
 * @param cashback - the offer's cashback on the transaction, after `max_cashback`
 * @returns the failed check or the room
 */
export function fundingRoom(
  offer: CompiledOffer,
  m: MatchInput,
  options: ResolvedOptions,
  cashback: Cashback,
): FundingRoom {
  const day = m.tx.when.day;
  let room: Cashback | undefined;
  let capLeft: Cashback | undefined;
  let countLeft: number | undefined;
  const budget = offer.budget;
  // Both counters are read whatever the cap says: which counters a transaction reads depends only
  // on the checks before these, never on what was spent, so the engine can hold them all before
  // it decides (docs/engine.md, Budgets and caps racing).
  const budgetSpent =
    budget === undefined
      ? undefined
      : m.spent?.(offer.offerId, periodStart(budget.period, day), undefined);
  const cap = offer.customerCap;
  if (cap !== undefined) {
    const spent = m.spent?.(offer.offerId, periodStart(cap.period, day), m.tx.customerId);
    if (cap.count !== undefined) countLeft = Math.max(0, cap.count - (spent?.count ?? 0));
    if (cap.amount !== undefined) room = capLeft = remainder(cap.amount, spent?.amount, options);
    if (countLeft === 0 || (capLeft !== undefined && isNothingLeft(capLeft))) {
      return { failed: 'customer_cap', room: undefined, capLeft, countLeft, budgetLeft: undefined };
    }
  }
  let budgetLeft: Cashback | undefined;
  if (budget !== undefined && budget.amount !== undefined) {
    budgetLeft = remainder(budget.amount, budgetSpent?.amount, options);
    if (
      isNothingLeft(budgetLeft) ||
      skips(budget, budgetLeft, asPaid(cashback, room, options.scale), options)
    ) {
      return { failed: 'budget', room: undefined, capLeft, countLeft, budgetLeft };
    }
    if (room === undefined || compareCashback(budgetLeft, room, options.scale) < 0) {
      room = budgetLeft;
    }
  }
  return { failed: undefined, room, capLeft, countLeft, budgetLeft };
}

/** Whether a budget that skips rather than pays in part has less left than the payment. */
function skips(
  budget: FundingLimit,
  left: Cashback,
  payment: Cashback,
  options: ResolvedOptions,
): boolean {
  return budget.onExhaust === 'skip' && compareCashback(left, payment, options.scale) < 0;
}

/**
 * The cashback as paid: the smaller of the cashback and the room its funding leaves.
 * @param cashback - after `max_cashback`
 * @param room - the smallest remainder, if any
 * @param scale - decimal places
 * @returns what is paid
 */
export function asPaid(cashback: Cashback, room: Cashback | undefined, scale: number): Cashback {
  return room !== undefined && compareCashback(room, cashback, scale) < 0 ? room : cashback;
}

/** No cashback: what an offer that failed a check earlier would pay. */
const ZERO: Cashback = { units: 0, decimal: undefined, value: 0 };

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
 * Selects the payment for a transaction among its candidate offers (see `candidatesOf`): the
 * highest cashback as paid (after its budget and cap), ties to the lowest `offer_id` (candidates
 * come sorted by id, and only a strictly higher cashback replaces the best).
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
    let failure: EligibilityCheck | undefined = firstFailedCheck(offer, m);
    const computed = failure === undefined ? computeCashback(m.tx.amount, offer, options) : ZERO;
    const funding =
      failure === undefined && offer.funded ? fundingRoom(offer, m, options, computed) : undefined;
    if (funding !== undefined) failure = funding.failed;
    if (failure !== undefined) {
      if (firstFailure === undefined) firstFailure = { offerId: offer.offerId, check: failure };
      continue;
    }
    const cashback =
      funding === undefined ? computed : asPaid(computed, funding.room, options.scale);
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
