import type { WallClock } from '../model/dateTime.js';
import { formatDay } from '../model/day.js';
import type { ResolvedOptions } from '../model/options.js';
import type { LeafResult } from '../rules/index.js';
import { computeCashback, isZeroCashback } from './cashback.js';
import { customerFactsOf, factContext, transactionFactsOf } from './facts.js';
import { fundingPeriod } from './fundingPeriod.js';
import { historyFacts } from './history.js';
import {
  asPaid,
  type EligibilityCheck,
  type FundingRoom,
  firstFailedCheck,
  fundingRoom,
  type MatchInput,
  offerHolds,
  purchasesOf,
} from './match.js';
import type { CompiledOffer, FundingPeriod } from './offer.js';

/** How one candidate offer fared against a transaction. @public */
export interface CandidateExplanation {
  /** The offer. */
  readonly offer_id: number;
  /** Whether every eligibility check passed. */
  readonly matched: boolean;
  /** Cashback it would pay (when matched), possibly 0. */
  readonly cashback?: number;
  /** Payment day it would give (when matched). */
  readonly payment_date?: string;
  /** The first failed check and why, or `zero_cashback` when it matched but pays 0. */
  readonly failed?: { readonly check: EligibilityCheck | 'zero_cashback'; readonly detail: string };
  /**
   * Every comparison of the offer's `conditions` with the fact's value, the operator, the value
   * and its result, whichever check failed (absent when the offer has no conditions).
   */
  readonly conditions?: readonly LeafResult[];
  /**
   * For an offer with a budget or a cap that passed the checks before them: what its customer's
   * cap and its budget had left in the transaction's period before it (docs/concepts.md,
   * Funding controls).
   */
  readonly funding?: FundingExplanation;
}

/** What a budget and a cap had left for one transaction. @public */
export interface FundingExplanation {
  /** What the customer's cap amount had left, when the cap has an amount. */
  readonly cap_left?: number;
  /** Payments the customer's cap still allowed, when the cap has a count. */
  readonly cap_count_left?: number;
  /** What the budget had left, when the offer has a budget and the cap did not fail. */
  readonly budget_left?: number;
}

function fundingOf(f: FundingRoom): FundingExplanation {
  return {
    ...(f.capLeft === undefined ? {} : { cap_left: f.capLeft.value }),
    ...(f.countLeft === undefined ? {} : { cap_count_left: f.countLeft }),
    ...(f.budgetLeft === undefined ? {} : { budget_left: f.budgetLeft.value }),
  };
}

/** Why `customer_cap` or `budget` failed: what was left of which limit in which period. */
function fundingDetail(
  check: 'customer_cap' | 'budget',
  offer: CompiledOffer,
  m: MatchInput,
  f: FundingRoom,
): string {
  const limit = check === 'budget' ? offer.budget : offer.customerCap;
  const period = limit === undefined ? '' : periodText(limit.period, m.tx.when.day);
  if (check === 'budget') {
    return `the budget of ${offer.budget?.amount?.text ?? ''} has nothing left ${period}`;
  }
  if (f.countLeft === 0) {
    return `the customer has had the cap's ${offer.customerCap?.count ?? ''} payment(s) ${period}`;
  }
  return `the customer's cap of ${offer.customerCap?.amount?.text ?? ''} has nothing left ${period}`;
}

/** The period holding a day, in words: `in 2026-11-01..2026-11-30`, or `over the offer`. */
function periodText(period: FundingPeriod, day: number): string {
  if (period === 'offer') return 'over the offer';
  const { from, to } = fundingPeriod(period, day);
  return from === to ? `on ${from}` : `in ${from}..${to}`;
}

function leaves(offer: CompiledOffer, m: MatchInput): { conditions?: readonly LeafResult[] } {
  if (offer.condition === undefined) return {};
  const tx = m.tx;
  const transaction = m.txFacts ?? transactionFactsOf(tx);
  const customer = m.customerFacts ?? customerFactsOf(m.customer, m.age);
  const ctx = factContext(transaction, customer, purchasesOf(offer, m), tx, offer.lookbackDays);
  return { conditions: offer.condition.explain(ctx) };
}

/** The comparisons that came out false, for the `conditions` detail; `not` may invert them. */
function failedLeaves(offer: CompiledOffer, m: MatchInput): string {
  const failed = (leaves(offer, m).conditions ?? []).filter((leaf) => !leaf.result);
  if (failed.length === 0) return '';
  const shown = failed.map(
    (leaf) =>
      `${leaf.fact} (${JSON.stringify(leaf.factValue) ?? 'undefined'}) ${leaf.operator} ${JSON.stringify(leaf.value)}`,
  );
  return `; false: ${shown.join(', ')}`;
}

/** A date-time's text to the nanosecond when it has a fraction of a millisecond. */
function precise(w: WallClock): string {
  const below = w.nanos % 1_000_000;
  return below === 0 ? w.text : `${w.text}${String(below).padStart(6, '0')}`;
}

function bands(offer: CompiledOffer): string {
  return (offer.offer.age ?? []).join(', ');
}

/** Why a transaction is not in an offer's scope. */
function scopeDetail(offer: CompiledOffer, m: MatchInput): string {
  const tx = m.tx;
  const scope = offer.scope;
  if (scope === undefined) {
    return `merchant '${tx.merchantKey}' is not the offer's '${offer.merchantKey ?? ''}'`;
  }
  if (scope.exclude.has(tx.merchantKey)) {
    return `merchant '${tx.merchantKey}' is excluded from the offer's scope`;
  }
  const { id, category_code } = tx.merchant;
  return `merchant '${tx.merchantKey}' (id '${id}', category '${category_code}') is not in the offer's scope`;
}

/** Why a transaction's channel does not meet an offer's `channels`. */
function channelDetail(offer: CompiledOffer, m: MatchInput): string {
  const wanted = (offer.channels ?? []).join(', ');
  return m.tx.channel === undefined
    ? `the transaction has no channel; the offer requires ${wanted}`
    : `channel '${m.tx.channel}' is not in ${wanted}`;
}

/** Where an offer's earlier purchases are, in words. */
function where(offer: CompiledOffer): string {
  return offer.scope === undefined ? 'here' : 'in its scope';
}

function detail(
  check: Exclude<EligibilityCheck, 'customer_cap' | 'budget'>,
  offer: CompiledOffer,
  m: MatchInput,
): string {
  const tx = m.tx;
  switch (check) {
    case 'active':
      return 'the offer is not active';
    case 'scope':
      return scopeDetail(offer, m);
    case 'channel':
      return channelDetail(offer, m);
    case 'valid_dates':
      return `day ${tx.when.dayText} is outside ${formatDay(offer.validFrom)}..${formatDay(offer.validTo)}`;
    case 'activation': {
      const at = m.activation?.(tx.customerId, offer.offerId);
      return at === undefined
        ? `the customer has not activated the offer`
        : `the customer activated the offer at ${precise(at)}, after ${precise(tx.when)}`;
    }
    case 'age':
      return m.age < 0
        ? `the customer's birthday ${m.customer.birthday} is after the day ${tx.when.dayText}`
        : `age ${m.age} is not in ${bands(offer)}`;
    case 'gender':
      return `gender '${m.customer.genderKey}' is not in ${offer.genders.join(', ')}`;
    case 'min_amount':
      return `amount ${tx.amount.text} is below min_amount ${offer.minAmount?.text ?? ''}`;
    case 'audience': {
      const purchases = purchasesOf(offer, m);
      const n = historyFacts(purchases, tx.when, offer.lookbackDays).merchant_purchases;
      return offer.audience === 'returning'
        ? `the offer is for returning customers; no earlier purchase ${where(offer)} in the ${offer.lookbackDays} days before`
        : `the offer is for new customers; ${n} earlier purchase(s) ${where(offer)} in the ${offer.lookbackDays} days before`;
    }
    case 'conditions':
      return `the conditions are not met${failedLeaves(offer, m)}`;
  }
}

/**
 * Explains one offer against one transaction: matched with its cashback, or the first check
 * that failed and why.
 */
export function explainOffer(
  offer: CompiledOffer,
  m: MatchInput,
  options: ResolvedOptions,
): CandidateExplanation {
  const failure = offer.active && !offerHolds(offer, m.tx) ? 'scope' : firstFailedCheck(offer, m);
  if (failure !== undefined) {
    return {
      offer_id: offer.offerId,
      matched: false,
      failed: { check: failure, detail: detail(failure, offer, m) },
      ...leaves(offer, m),
    };
  }
  const f = offer.funded
    ? fundingRoom(offer, m, options, computeCashback(m.tx.amount, offer, options))
    : undefined;
  const funding = f === undefined ? {} : { funding: fundingOf(f) };
  if (f?.failed !== undefined) {
    return {
      offer_id: offer.offerId,
      matched: false,
      failed: { check: f.failed, detail: fundingDetail(f.failed, offer, m, f) },
      ...leaves(offer, m),
      ...funding,
    };
  }
  const computed = computeCashback(m.tx.amount, offer, options);
  const cashback = f === undefined ? computed : asPaid(computed, f.room, options.scale);
  const paymentDate = formatDay(m.tx.when.day + offer.warranty);
  if (isZeroCashback(cashback)) {
    return {
      offer_id: offer.offerId,
      matched: true,
      cashback: 0,
      payment_date: paymentDate,
      failed: {
        check: 'zero_cashback',
        detail: `cashback rounds to 0 at ${options.scale} decimal places`,
      },
      ...leaves(offer, m),
      ...funding,
    };
  }
  return {
    offer_id: offer.offerId,
    matched: true,
    cashback: cashback.value,
    payment_date: paymentDate,
    ...leaves(offer, m),
    ...funding,
  };
}
