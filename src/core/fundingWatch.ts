// What budgets and caps did in a backtest (docs/backtest.md, Budgets and caps): each chunk is
// looked at with the state it was decided against. The checks and amounts are matching's own
// (`firstFailedCheck`, `fundingRoom`, `computeCashback`); what this module rebuilds is only the
// state each item of the chunk saw, as `decide` builds it: the session's spending plus the
// chunk's earlier payments, the stored purchases plus the chunk's earlier ones.
import { cashbackDecimal, compareCashback, computeCashback } from '../matching/cashback.js';
import type { OfferSet } from '../matching/compileOffers.js';
import { addSpent, type SpentLookup } from '../matching/funding.js';
import type { Purchase } from '../matching/history.js';
import { firstFailedCheck, fundingRoom, type MatchInput, matchInput } from '../matching/match.js';
import type { CompiledOffer } from '../matching/offer.js';
import { ExactMoney } from '../model/money.js';
import type { ResolvedOptions } from '../model/options.js';
import type { ParsedCustomer } from '../model/parseCustomer.js';
import type { ParsedTransaction, ParseResult } from '../model/parseTransaction.js';
import type { BurnBook } from './BudgetBurn.js';
import { type DecideState, type Decision, decide, purchaseOf } from './decide.js';
import { FundingCounters } from './FundingCounters.js';
import type { FundingCheck, HeldBackTally } from './HeldBack.js';
import type { HeldBackReturns } from './HeldBackReturns.js';
import type { Outcome } from './outcome.js';
import type { DecisionObserver } from './replay/ReplayCore.js';

/**
 * The offers of a set with no budget and no cap: the same ids, checks and cashback.
 * @param set - compiled offers
 * @returns the set with every offer's funding left out
 */
export function withoutFunding(set: OfferSet): OfferSet {
  const plain = new Map<CompiledOffer, CompiledOffer>(
    set.offers.map((o) => [
      o,
      o.funded ? { ...o, budget: undefined, customerCap: undefined, funded: false } : o,
    ]),
  );
  const of = (o: CompiledOffer): CompiledOffer => plain.get(o) ?? o;
  return {
    ...set,
    offers: set.offers.map(of),
    byMerchant: new Map([...set.byMerchant].map(([key, list]) => [key, list.map(of)])),
  };
}

/**
 * Watches one offer set's chunks: fills its budgets' burn and what its caps and budgets held back.
 * @param offers - the set's compiled offers (the session's)
 * @param burn - where budgets' payments and run-out days go
 * @param held - where held-back cashback goes
 * @param plain - the same offers `withoutFunding`
 * @param returns - follows the transactions held back through their returns, when there are returns
 * @returns the observer to open the set's session with
 */
export function watchFunding(
  offers: OfferSet,
  burn: BurnBook,
  held: HeldBackTally,
  plain: OfferSet,
  returns: HeldBackReturns | undefined,
): DecisionObserver {
  const fundedKeys = new Set(
    [...offers.byMerchant].filter(([, list]) => list.some((o) => o.funded)).map(([key]) => key),
  );
  const byId = new Map(offers.offers.map((o) => [o.offerId, o]));
  return (items, state, decision) => {
    // Only items at a merchant with a funded offer can be held back or spend a budget; the others
    // touch neither those merchants' purchases nor any counter.
    const kept: number[] = [];
    items.forEach((item, i) => {
      if (item.ok && fundedKeys.has(item.value.merchantKey)) kept.push(i);
    });
    if (kept.length === 0) return;
    // The same state with no budget and no cap: history does not depend on payments.
    const unfunded = decide(
      kept.map((i) => items[i] as ParseResult<ParsedTransaction>),
      { ...state, offers: plain, spent: undefined },
    ).outcomes;
    const walk = new ChunkWalk(state, decision);
    kept.forEach((i, k) => {
      const tx = (items[i] as { value: ParsedTransaction }).value;
      const outcome = decision.outcomes[i] as Outcome;
      if (
        !outcome.ok &&
        outcome.error.code !== 'no_offer' &&
        outcome.error.code !== 'zero_cashback'
      )
        return;
      const m = walk.input(tx);
      budgetChecks(offers.byMerchant.get(tx.merchantKey) ?? [], m, outcome, burn, state.options);
      const best = unfunded[k] as Outcome;
      if (
        best.ok &&
        heldBack(byId.get(best.payment.offer_id), best, m, outcome, held, state.options)
      )
        returns?.keep(tx, best);
      walk.after(tx, outcome, burn);
    });
  };
}

/**
 * The state each item of a chunk saw, rebuilt item by item as `decide` builds it (docs/concepts.md,
 * Funding controls): what the session spent plus the chunk's earlier payments, and the stored
 * purchases plus the chunk's earlier ones.
 */
class ChunkWalk {
  private readonly added: FundingCounters;
  private readonly purchases = new Map<string, Purchase[]>();
  private funded = 0;
  private readonly spent: SpentLookup;
  private readonly activation: MatchInput['activation'];

  constructor(
    private readonly state: DecideState,
    private readonly decision: Decision,
  ) {
    const options = state.options;
    const added = new FundingCounters(options);
    this.added = added;
    this.spent = (offerId, start, customerId) => {
      const stored = state.spent?.(offerId, start, customerId);
      const a = added.spent(offerId, start, customerId);
      return a === undefined ? stored : addSpent(stored, a.amount, a.count, options);
    };
    this.activation = state.activation?.bind(state);
  }

  /** The match input of an item that reached matching. */
  input(tx: ParsedTransaction): MatchInput {
    const customer = this.state.customer(tx.customerId) as ParsedCustomer;
    return matchInput(tx, customer, this.list(tx), this.activation, this.spent);
  }

  /** Moves past an item: its payment counted, its purchase kept. */
  after(tx: ParsedTransaction, outcome: Outcome, burn: BurnBook): void {
    const f = this.decision.funded[this.funded];
    if (outcome.ok && f !== undefined && f.tx === tx) {
      this.added.paid([f]);
      if (f.offer.budget !== undefined) burn.paid(f.offer, tx.when.day, f.cashback);
      this.funded++;
    }
    this.list(tx)?.push(purchaseOf(tx));
  }

  private list(tx: ParsedTransaction): Purchase[] | undefined {
    if (!this.state.offers.historyKeys.has(tx.merchantKey)) return undefined;
    const key = `${tx.customerId}\u0000${tx.merchantKey}`;
    let list = this.purchases.get(key);
    if (list === undefined) {
      list = this.state.purchases(tx.customerId, tx.merchantKey)?.slice() ?? [];
      this.purchases.set(key, list);
    }
    return list;
  }
}

/**
 * Records the day a budget ran out: a candidate with a budget that passed every check before it
 * found nothing left, or paid this transaction partially because of it.
 */
function budgetChecks(
  candidates: readonly CompiledOffer[],
  m: MatchInput,
  outcome: Outcome,
  burn: BurnBook,
  options: ResolvedOptions,
): void {
  const day = m.tx.when.day;
  for (const offer of candidates) {
    if (offer.budget === undefined || burn.hasRunOut(offer, day)) continue;
    if (firstFailedCheck(offer, m) !== undefined) continue;
    const room = fundingRoom(offer, m, options);
    if (room.failed === 'budget') {
      burn.ranOut(offer, day);
      continue;
    }
    const left = room.budgetLeft;
    if (
      room.failed === undefined &&
      left !== undefined &&
      outcome.ok &&
      outcome.payment.offer_id === offer.offerId &&
      compareCashback(outcome.cashback, left, options.scale) === 0 &&
      compareCashback(left, computeCashback(m.tx.amount, offer, options), options.scale) < 0
    ) {
      burn.ranOut(offer, day);
    }
  }
}

/**
 * Counts what the best offer with no budget and no cap would have paid beyond what was paid, under
 * that offer's check that held it back: the one it failed, or else the one whose remainder limited
 * it (the cap on a tie, as it is checked first). Says whether it counted the transaction.
 */
function heldBack(
  offer: CompiledOffer | undefined,
  best: Outcome & { ok: true },
  m: MatchInput,
  outcome: Outcome,
  held: HeldBackTally,
  options: ResolvedOptions,
): boolean {
  const scale = options.scale;
  const paid = outcome.ok ? cashbackDecimal(outcome.cashback, scale) : new ExactMoney(0);
  const would = cashbackDecimal(best.cashback, scale);
  if (offer === undefined || !would.gt(paid)) return false;
  const room = fundingRoom(offer, m, options);
  let check: FundingCheck | undefined = room.failed;
  if (check === undefined && room.room !== undefined) {
    const capLeft = room.capLeft;
    check =
      capLeft !== undefined && compareCashback(capLeft, room.room, scale) === 0
        ? 'customer_cap'
        : 'budget';
  }
  if (check === undefined) return false;
  held.add(offer.offerId, check, m.tx.transactionId, would, paid);
  return true;
}
