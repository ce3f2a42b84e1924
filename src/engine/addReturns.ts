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
import type { FundingChange } from '../store/Store.js';
import { Conflict, offersStill, untilCommitted } from './commitBatch.js';
import type { EngineContext } from './EngineContext.js';
import { errorMap } from './errorMap.js';
import { cashbackAdjusted } from './events.js';
import { journalingLedger, storeChanges } from './funding.js';
import { type LoadedReturns, loadReturnState } from './loadReturnState.js';
import type { AddReturnsResult } from './results.js';
import { storedDate } from './transactionRecords.js';

/**
 * `engine.addReturns`: decides a batch of returns against the stored state, then stores its
 * returns, the payments' new cashback and one `cashback.adjusted` event (when anything was
 * adjusted) in one unit of work; decided again when a racing call got in between (docs/engine.md,
 * addReturns).
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
    const loaded = await loadReturnState(ctx, partner, items, offers);
    const decision = decideReturns(items, loaded.state);
    const conflict = await commitReturns(ctx, partner, event_id, decision, { loaded, revision });
    if (conflict !== undefined) return conflict;
    const adjustments: Adjustment[] = [];
    const errors: ReturnError[] = [];
    for (const o of decision.outcomes) {
      if (o.ok) adjustments.push(o.adjustment);
      else errors.push(o.error);
    }
    const result: AddReturnsResult = {
      event_id,
      adjustments,
      errors: errorMap(errors),
      details: { errors },
    };
    return result;
  });
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
 * Stores a decided batch of returns in one unit of work: the returns (insert-if-absent, which
 * holds their transactions), a second read of those transactions' returns, the payments'
 * changes, then the event. Abandons the unit when the insert reports fewer new ids than it was
 * sent (`ids`), or a racing call stored a return of one of the transactions or changed one of
 * the payments since the batch was read (`returns`).
 * @returns `undefined` when it committed, the `Conflict` when it was abandoned
 */
async function commitReturns(
  ctx: EngineContext,
  partner: string,
  eventId: string,
  decision: ReturnDecision,
  read: { readonly loaded: LoadedReturns; readonly revision: number },
): Promise<Conflict | undefined> {
  const { loaded, revision } = read;
  const records = decision.accepted.map((r) => returnRecord(r, eventId));
  const adjusted = adjustedPayments(decision, loaded.payments);
  try {
    await ctx.store.transaction(async (s) => {
      if (records.length > 0) {
        const inserted = await s.returns.insert(partner, records);
        if (inserted.length !== records.length) throw new Conflict('ids');
        const txIds = [...new Set(records.map((r) => r.transaction_id))];
        let before = 0;
        for (const id of txIds) before += loaded.returnCounts.get(id) ?? 0;
        // Returns are never removed: any more than these were stored by a racing call.
        const now = await s.returns.ofTransactions(partner, txIds);
        if (now.length !== before + records.length) throw new Conflict('returns');
      }
      if (decision.changes.length > 0) {
        const changed = await s.payments.adjust(
          partner,
          decision.changes.map((c) => ({
            transaction_id: c.transactionId,
            previous_cashback_amount: c.previous,
            cashback_amount: c.cashback,
          })),
        );
        if (changed.length !== decision.changes.length) throw new Conflict('returns');
        const back = givenBack(ctx, decision, loaded);
        if (back.length > 0) await s.funding.add(partner, back);
      }
      if (adjusted.length > 0) {
        const event = cashbackAdjusted(eventId, ctx.clock().toISOString(), adjusted);
        await s.outbox.add(partner, [event]);
      }
      // The offers the give-back was worked out with are still the store's.
      if (decision.changes.length > 0) await offersStill(s, revision);
    });
    return undefined;
  } catch (e) {
    if (e instanceof Conflict) return e;
    throw e;
  }
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
