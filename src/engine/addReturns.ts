import { decideReturns } from '../core/returns/decideReturns.js';
import { parseReturns } from '../core/returns/parseReturns.js';
import type {
  AcceptedReturn,
  Adjustment,
  ReturnDecision,
  ReturnError,
} from '../core/returns/ReturnOutcome.js';
import { formatDay } from '../model/day.js';
import type { PaymentRecord, ReturnRecord } from '../store/records.js';
import type { FundingChange, FundingRange, StoreSession } from '../store/Store.js';
import { Conflict, offersStill, untilCommitted } from './commitBatch.js';
import type { EngineContext } from './EngineContext.js';
import { errorMap } from './errorMap.js';
import { cashbackAdjusted } from './events.js';
import { journalingLedger, storeChanges } from './funding.js';
import { type LoadedReturns, loadReturnState } from './loadReturnState.js';
import type { AddReturnsResult } from './results.js';
import { storedDate } from './transactionRecords.js';

/**
 * `engine.addReturns`: in one unit of work, holds the returned transactions, decides the batch of
 * returns against what the store holds of them, then stores its returns, the payments' new
 * cashback and one `cashback.adjusted` event (when anything was adjusted). Deciding under the
 * hold means racing calls on one transaction wait for each other instead of deciding again
 * (docs/engine.md, addReturns); a batch is decided again only when a racing call stored one of its
 * return ids first, or changed the offers.
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param returns - returns as sent
 * @returns the event id, the adjustments and the errors
 */
export async function addReturns(
  ctx: EngineContext,
  partner: string,
  returns: readonly unknown[],
): Promise<AddReturnsResult> {
  const items = parseReturns(returns, ctx.options.timeZone);
  const event_id = ctx.ids();
  return untilCommitted(items.length, async () => {
    const { revision, set: offers } = await ctx.offers.snapshot();
    try {
      const decision = await ctx.store.transaction(async (s) => {
        const loaded = await loadReturnState(ctx, s, partner, items, offers);
        const decided = decideReturns(items, loaded.state);
        await commitReturns(ctx, s, { partner, eventId: event_id, revision }, decided, loaded);
        return decided;
      });
      return resultOf(event_id, decision);
    } catch (e) {
      if (e instanceof Conflict) return e;
      throw e;
    }
  });
}

/** The answer to a committed batch of returns: its adjustments and errors, in input order. */
function resultOf(event_id: string, decision: ReturnDecision): AddReturnsResult {
  const adjustments: Adjustment[] = [];
  const errors: ReturnError[] = [];
  for (const o of decision.outcomes) {
    if (o.ok) adjustments.push(o.adjustment);
    else errors.push(o.error);
  }
  return { event_id, adjustments, errors: errorMap(errors), details: { errors } };
}

/** The record a store keeps of an accepted return. */
function returnRecord(r: AcceptedReturn, eventId: string): ReturnRecord {
  return {
    return_id: r.returnId,
    transaction_id: r.transactionId,
    date: storedDate(r.when),
    day: formatDay(r.when.day),
    amount: r.amount,
    event_id: eventId,
  };
}

/**
 * Writes a batch of returns decided inside the unit `s`: the returns (insert-if-absent), then the
 * counters the lowered payments give back to, held before the payments change (one order of locks
 * for every unit: docs/postgres.md, Lock order), the payments' changes, the give-back, the event.
 * Throws a `Conflict` when a racing call stored one of the return ids first (`ids`), a payment
 * changed under the hold (`returns`: a store that does not hold), or the offers the give-back was
 * worked out with moved (`offers`).
 */
async function commitReturns(
  ctx: EngineContext,
  s: StoreSession,
  call: { readonly partner: string; readonly eventId: string; readonly revision: number },
  decision: ReturnDecision,
  loaded: LoadedReturns,
): Promise<void> {
  const { partner, eventId } = call;
  const records = decision.accepted.map((r) => returnRecord(r, eventId));
  if (records.length > 0) {
    const inserted = await s.returns.insert(partner, records);
    if (inserted.length !== records.length) throw new Conflict('ids');
  }
  if (decision.changes.length > 0) {
    const back = givenBack(ctx, decision, loaded);
    if (back.length > 0) await s.funding.hold(partner, scopesOf(back));
    const changed = await s.payments.adjust(
      partner,
      decision.changes.map((c) => ({
        transaction_id: c.transactionId,
        previous_cashback_amount: c.previous,
        cashback_amount: c.cashback,
      })),
    );
    if (changed.length !== decision.changes.length) throw new Conflict('returns');
    if (back.length > 0) await s.funding.add(partner, back);
    // The offers the give-back was worked out with are still the store's.
    await offersStill(s, call.revision);
  }
  const adjusted = adjustedPayments(decision, loaded.payments);
  if (adjusted.length > 0) {
    const event = cashbackAdjusted(eventId, ctx.clock().toISOString(), adjusted);
    await s.outbox.add(partner, [event]);
  }
}

/** The counters changes name, each a one-day range: what a unit holds before it changes them. */
function scopesOf(changes: readonly FundingChange[]): FundingRange[] {
  return changes.map((c) => ({
    offer_id: c.offer_id,
    customer_id: c.customer_id,
    from: c.day,
    to: c.day,
  }));
}

/**
 * What the batch's lowered payments of funded offers give back to their budgets and caps
 * (docs/concepts.md, Funding controls), as the changes the store adds.
 */
function givenBack(
  ctx: EngineContext,
  decision: ReturnDecision,
  loaded: LoadedReturns,
): FundingChange[] {
  const ledger = journalingLedger(ctx.options);
  for (const c of decision.changes) {
    const tx = loaded.state.transaction(c.transactionId);
    const offer = tx?.payment?.offer;
    if (tx === undefined || offer === undefined || !offer.funded) continue;
    ledger.giveBack(offer, tx.customerId, tx.when.day, c.previous, c.cashback);
  }
  return storeChanges(ledger, ctx.options.scale);
}

/** Per adjustment of the batch, in input order: its payment as read and the two cashbacks. */
function adjustedPayments(
  decision: ReturnDecision,
  payments: ReadonlyMap<string, PaymentRecord>,
): { payment: PaymentRecord; previous: string; cashback: string }[] {
  const out: { payment: PaymentRecord; previous: string; cashback: string }[] = [];
  for (const o of decision.outcomes) {
    if (!o.ok) continue;
    const payment = payments.get(o.adjustment.transaction_id);
    // decideReturns adjusts only payments the state gave it, all read into `payments`.
    if (payment === undefined) throw new Error(`adjusted a payment that was not read`);
    out.push({ payment, previous: o.previous, cashback: o.cashback });
  }
  return out;
}
