// What budgets and caps did in a backtest (docs/backtest.md, Budgets and caps): each match of a
// chunk is looked at with the input `decide` gave matching (what was spent before it, the
// chunk's earlier payments included) and what matching decided. The checks and amounts are
// matching's own (`firstFailedCheck`, `fundingRoom`, `computeCashback`).

import { candidatesOfTx } from '../../matching/candidates.js';
import { cashbackDecimal, compareCashback, computeCashback } from '../../matching/cashback.js';
import type { CompiledOfferSet } from '../../matching/compileOffers.js';
import {
  firstFailedCheck,
  fundingRoom,
  type MatchInput,
  type MatchResult,
} from '../../matching/match.js';
import type { CompiledOffer } from '../../matching/offer.js';
import { ExactMoney } from '../../model/money.js';
import type { ResolvedOptions } from '../../model/options.js';
import type { ParsedTransaction } from '../../model/parseTransaction.js';
import { decide } from '../decide.js';
import type { Outcome } from '../outcome.js';
import type { ChunkWatcher } from '../replay/ReplayCore.js';
import type { BurnBook } from './BudgetBurn.js';
import type { FundingCheck, HeldBackTally } from './HeldBack.js';
import type { HeldBackReturns } from './HeldBackReturns.js';

/**
 * The offers of a set with no budget and no cap: the same ids, checks and cashback.
 * @param set - compiled offers
 * @returns the set with every offer's funding left out
 */
export function withoutFunding(set: CompiledOfferSet): CompiledOfferSet {
  const plain = new Map<CompiledOffer, CompiledOffer>(
    set.compiled.map((o) => [
      o,
      o.funded ? { ...o, budget: undefined, customerCap: undefined, funded: false } : o,
    ]),
  );
  const of = (o: CompiledOffer): CompiledOffer => plain.get(o) ?? o;
  const index = (m: ReadonlyMap<string, readonly CompiledOffer[]>) =>
    new Map([...m].map(([key, list]) => [key, list.map(of)]));
  return {
    ...set,
    compiled: set.compiled.map(of),
    byMerchant: index(set.byMerchant),
    byMerchantId: index(set.byMerchantId),
    byCategory: index(set.byCategory),
    scopedHistory: set.scopedHistory.map(of),
  };
}

/**
 * Watches one offer set's chunks: fills its budgets' burn and what its caps and budgets held back.
 * @param offers - the set's compiled offers (the session's)
 * @param burn - where budgets' payments and run-out days go
 * @param held - where held-back cashback goes
 * @param plain - the same offers `withoutFunding`
 * @param returns - follows the transactions held back through their returns, when there are returns
 * @returns the watcher to open the set's session with
 */
export function watchFunding(
  offers: CompiledOfferSet,
  burn: BurnBook,
  held: HeldBackTally,
  plain: CompiledOfferSet,
  returns: HeldBackReturns | undefined,
): ChunkWatcher {
  const byId = new Map(offers.compiled.map((o) => [o.offerId, o]));
  // A scope's purchases may be at merchants without a funded offer: then every item is kept.
  const everyItem = offers.scopedHistory.length > 0;
  const funded = (tx: ParsedTransaction) => candidatesOfTx(offers, tx)?.some((o) => o.funded);
  return (items, state) => {
    // Only items with a funded candidate can be held back or spend a budget; the others touch
    // neither those candidates' purchases nor any counter.
    const kept = items.filter((item) => item.ok && (everyItem || funded(item.value) === true));
    if (kept.length === 0) return undefined;
    // The same state with no budget and no cap: history does not depend on payments.
    const unfunded = decide(kept, { ...state, offers: plain, spent: undefined }).outcomes;
    const best = new Map<ParsedTransaction, Outcome>();
    kept.forEach((item, k) => {
      best.set((item as { value: ParsedTransaction }).value, unfunded[k] as Outcome);
    });
    const options = state.options;
    return (m, r) => {
      const tx = m.tx;
      const would = best.get(tx);
      if (would === undefined) return;
      budgetChecks(candidatesOfTx(offers, tx) ?? [], m, r, burn, options);
      if (would.ok && heldBack(byId.get(would.payment.offer_id), would, m, r, held, options)) {
        returns?.keep(tx, would);
      }
      if (r.kind === 'paid' && r.offer.budget !== undefined) {
        burn.paid(r.offer, tx.when.day, r.cashback);
      }
    };
  };
}

/**
 * Records the day a budget ran out: a candidate with a budget that passed every check before it
 * found nothing left, or paid this transaction partially because of it.
 */
function budgetChecks(
  candidates: readonly CompiledOffer[],
  m: MatchInput,
  r: MatchResult,
  burn: BurnBook,
  options: ResolvedOptions,
): void {
  const day = m.tx.when.day;
  for (const offer of candidates) {
    if (offer.budget === undefined || burn.hasRunOut(offer, day)) continue;
    if (firstFailedCheck(offer, m) !== undefined) continue;
    const room = fundingRoom(offer, m, options, computeCashback(m.tx.amount, offer, options));
    if (room.failed === 'budget') {
      burn.ranOut(offer, day);
      continue;
    }
    const left = room.budgetLeft;
    if (
      room.failed === undefined &&
      left !== undefined &&
      r.kind === 'paid' &&
      r.offer.offerId === offer.offerId &&
      compareCashback(r.cashback, left, options.scale) === 0 &&
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
  r: MatchResult,
  held: HeldBackTally,
  options: ResolvedOptions,
): boolean {
  const scale = options.scale;
  const paid = r.kind === 'paid' ? cashbackDecimal(r.cashback, scale) : new ExactMoney(0);
  const would = cashbackDecimal(best.cashback, scale);
  if (offer === undefined || !would.gt(paid)) return false;
  const room = fundingRoom(offer, m, options, computeCashback(m.tx.amount, offer, options));
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
