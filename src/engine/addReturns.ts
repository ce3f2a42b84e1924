import { decideReturns } from '../core/returns/decideReturns.js';
import { parseReturns } from '../core/returns/parseReturns.js';
import {
  type AcceptedReturn,
  type Clawback,
  type ReturnDecision,
  sortReturnOutcomes,
} from '../core/returns/ReturnOutcome.js';
import type { CompiledOfferSet } from '../matching/compileOffers.js';
import { parseDateTime, type WallClock } from '../model/dateTime.js';
import { formatDay } from '../model/day.js';
import type { ParsedReturn } from '../model/parseReturn.js';
import type { ParseResult } from '../model/parseTransaction.js';
import type { PaymentChangeRecord, ReturnRecord, StoredPayment } from '../store/records.js';
import type { FundingChange, FundingRange, StoreSession } from '../store/Store.js';
import { Conflict, offersStill, untilCommitted } from './commitBatch.js';
import type { EngineContext } from './EngineContext.js';
import { errorMap } from './errorMap.js';
import { cashbackAdjusted, cashbackClawedBack } from './events.js';
import { journalingLedger, storeChanges } from './funding.js';
import { type LoadedReturns, loadReturnState } from './loadReturnState.js';
import type { AddReturnsResult } from './results.js';
import { storedDate } from './transactionRecords.js';

/** What one `addReturns` call is: its partner, clock reading and event ids. */
interface ReturnsCall {
  readonly partner: string;
  readonly eventId: string;
  /** The id of its `cashback.clawed_back` event, drawn when it has clawbacks. */
  clawedBackId: string | undefined;
  /** The engine's clock when the call ran: every return's arrival. */
  readonly now: Date;
}

/**
 * `engine.addReturns`: in one unit of work, holds the returned transactions, decides the batch of
 * returns against what the store holds of them, then stores its returns, the payments' new
 * cashback, the payments' history (adjustments and clawbacks) and one `cashback.adjusted` and one
 * `cashback.clawed_back` event (when anything was adjusted or clawed back). Every return arrives
 * when the call runs, by the engine's clock (docs/concepts.md, Late returns). Deciding under the
 * hold means racing calls on one transaction wait for each other instead of deciding again
 * (docs/engine.md, addReturns); a batch is decided again only when a racing call stored one of its
 * return ids first, or changed the offers.
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param returns - returns as sent
 * @returns the event id, the adjustments, the clawbacks and the errors
 */
export async function addReturns(
  ctx: EngineContext,
  partner: string,
  returns: readonly unknown[],
): Promise<AddReturnsResult> {
  const now = ctx.clock();
  const items = arrivedAt(parseReturns(returns, ctx.options.timeZone), now, ctx.options.timeZone);
  const call: ReturnsCall = { partner, eventId: ctx.ids(), clawedBackId: undefined, now };
  return untilCommitted(items.length, async () => {
    const { revision, set: offers } = await ctx.offers.snapshot();
    try {
      const decision = await ctx.store.transaction(async (s) => {
        const loaded = await loadReturnState(ctx, s, partner, items);
        const decided = decideReturns(items, loaded.state);
        await commitReturns(ctx, s, call, decided, { loaded, offers, revision });
        return decided;
      });
      const { adjustments, clawbacks, errors } = sortReturnOutcomes(decision.outcomes);
      const result: AddReturnsResult = {
        event_id: call.eventId,
        adjustments,
        clawbacks,
        errors: errorMap(errors),
        details: { errors },
      };
      return result;
    } catch (e) {
      if (e instanceof Conflict) return e;
      throw e;
    }
  });
}

/**
 * The returns with their arrival: the engine's clock, in its zone, whatever `reported_at` they
 * carry (it is checked, and a replay reads it; the engine knows when it heard of a return).
 */
function arrivedAt(
  items: readonly ParseResult<ParsedReturn>[],
  now: Date,
  timeZone: string,
): ParseResult<ParsedReturn>[] {
  const arrival = parseDateTime(now.toISOString(), timeZone) as WallClock;
  return items.map((item) =>
    item.ok ? { ok: true, value: { ...item.value, reportedAt: arrival } } : item,
  );
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
 * for every unit: docs/postgres.md, Lock order), the payments' changes, the give-back, the
 * payments' history, the events. Throws a `Conflict` when a racing call stored one of the return
 * ids first (`ids`), a payment changed under the hold (`returns`: a store that does not hold), or
 * the offers the give-back was worked out with moved (`offers`).
 */
async function commitReturns(
  ctx: EngineContext,
  s: StoreSession,
  call: ReturnsCall,
  decision: ReturnDecision,
  read: {
    readonly loaded: LoadedReturns;
    readonly offers: CompiledOfferSet;
    readonly revision: number;
  },
): Promise<void> {
  const { partner, eventId } = call;
  const records = decision.accepted.map((r) => returnRecord(r, eventId));
  if (records.length > 0) {
    const inserted = await s.returns.insert(partner, records);
    if (inserted.length !== records.length) throw new Conflict('ids');
  }
  if (decision.changes.length > 0) {
    const back = givenBack(ctx, decision, read);
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
    await offersStill(s, read.revision);
  }
  await recordHistory(ctx, s, call, decision, read.loaded.payments);
}

/**
 * The payments' history of the batch (docs/concepts.md, History) and its events: one entry per
 * adjustment and per clawback, in input order, then `cashback.adjusted` with the adjusted
 * payments and `cashback.clawed_back` with the clawbacks. No budget or cap gets anything back for
 * a clawback: the money was paid out.
 */
async function recordHistory(
  ctx: EngineContext,
  s: StoreSession,
  call: ReturnsCall,
  decision: ReturnDecision,
  payments: ReadonlyMap<string, StoredPayment>,
): Promise<void> {
  const { partner, eventId, now } = call;
  const recorded_at = now.toISOString();
  const history: PaymentChangeRecord[] = [];
  const adjusted: { payment: StoredPayment; previous: string; cashback: string }[] = [];
  const clawbacks: Clawback[] = [];
  for (const o of decision.outcomes) {
    if (!o.ok) continue;
    if (o.kind === 'clawback') {
      const c = o.clawback;
      clawbacks.push(c);
      history.push({
        kind: 'clawback',
        ...c,
        amount: o.amount,
        day: c.date.slice(0, 10),
        event_id: eventId,
        recorded_at,
      });
      continue;
    }
    const payment = payments.get(o.adjustment.transaction_id);
    // decideReturns adjusts only payments the state gave it, all read into `payments`.
    if (payment === undefined) throw new Error('adjusted a payment that was not read');
    adjusted.push({ payment, previous: o.previous, cashback: o.cashback });
    history.push({
      kind: 'adjustment',
      transaction_id: payment.transaction_id,
      return_id: o.adjustment.return_id,
      previous_cashback_amount: o.previous,
      cashback_amount: o.cashback,
      event_id: eventId,
      recorded_at,
    });
  }
  if (history.length > 0) await s.payments.record(partner, history);
  const zone = ctx.options.timeZone;
  const events = [];
  if (adjusted.length > 0) events.push(cashbackAdjusted(eventId, now, zone, adjusted));
  if (clawbacks.length > 0) {
    call.clawedBackId ??= ctx.ids();
    events.push(cashbackClawedBack(call.clawedBackId, recorded_at, clawbacks));
  }
  if (events.length > 0) await s.outbox.add(partner, events);
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
 * What the batch's lowered payments give back to the budgets and caps their offer has now
 * (docs/concepts.md, Funding controls): the counters that count the payment are those of the
 * offer's current limits (a reload that gives an offer a limit recounts its payments into it), as
 * the changes the store adds.
 */
function givenBack(
  ctx: EngineContext,
  decision: ReturnDecision,
  read: { readonly loaded: LoadedReturns; readonly offers: CompiledOfferSet },
): FundingChange[] {
  const ledger = journalingLedger(ctx.options);
  const current = new Map(read.offers.compiled.map((o) => [o.offerId, o]));
  for (const c of decision.changes) {
    const tx = read.loaded.state.transaction(c.transactionId);
    const offer = current.get(tx?.payment?.offer.offerId ?? Number.NaN);
    if (tx === undefined || offer === undefined || !offer.funded) continue;
    ledger.giveBack(offer, tx.customerId, tx.when.day, c.previous, c.cashback);
  }
  return storeChanges(ledger, ctx.options.scale);
}
