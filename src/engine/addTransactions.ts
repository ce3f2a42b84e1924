import { decide, screenHistory } from '../core/decide.js';
import type { Payment, TransactionError } from '../core/outcome.js';
import { parseTransactions } from '../core/parseTransactions.js';
import { compileOfferSet } from '../matching/compileOffers.js';
import type { ParsedTransaction, ParseResult } from '../model/parseTransaction.js';
import type { PaymentRecord } from '../store/records.js';
import type { StoreSession } from '../store/Store.js';
import { commitBatch, offersStill, untilCommitted } from './commitBatch.js';
import type { EngineContext } from './EngineContext.js';
import { errorMap } from './errorMap.js';
import { cashbackCreated } from './events.js';
import { FundingReads, journalingLedger, spentFrom, storeChanges } from './funding.js';
import { loadBatchState } from './loadBatchState.js';
import type { AddHistoryResult, AddTransactionsResult, SeedPayment } from './results.js';
import { cashbackText } from './seedShapes.js';

/** History matches no offer: its state is read without offers. */
const NO_OFFERS = compileOfferSet([]);

/**
 * `engine.addHistory`: screens history items and stores the valid ones of known customers, in one
 * unit of work; nothing is paid.
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param transactions - history items as sent
 * @returns the event id and the errors
 */
export async function addHistory(
  ctx: EngineContext,
  partner: string,
  transactions: readonly unknown[],
): Promise<AddHistoryResult> {
  const items = parseTransactions(transactions, ctx.options.timeZone, true);
  const event_id = ctx.ids();
  return untilCommitted(items.length, async () => {
    const { state } = await loadBatchState(ctx, partner, items, NO_OFFERS, false);
    const screened = screenHistory(items, state);
    const conflict = await commitBatch(ctx, {
      partner,
      accepted: screened.accepted,
      source: 'history',
    });
    if (conflict !== undefined) return conflict;
    const result: AddHistoryResult = {
      event_id,
      errors: errorMap(screened.errors),
      details: { errors: screened.errors },
    };
    return result;
  });
}

/**
 * `engine.addTransactions`: decides a batch against the stored state, then stores its accepted
 * transactions, its payments and one `cashback.created` event (when anything is paid) in one unit
 * of work; decided again when a racing call got in between (docs/engine.md, concurrency).
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param transactions - submitted transactions as sent
 * @returns the partner API's result plus `details`
 */
export async function addTransactions(
  ctx: EngineContext,
  partner: string,
  transactions: readonly unknown[],
): Promise<AddTransactionsResult> {
  const items = parseTransactions(transactions, ctx.options.timeZone);
  const event_id = ctx.ids();
  return untilCommitted(items.length, async () => {
    const { revision, set: offers, revisions } = await ctx.offers.snapshot();
    const { state, lookback } = await loadBatchState(ctx, partner, items, offers, true);
    // The budgets and caps the batch reads are recorded here, then read inside the unit of work,
    // held until it ends, and the batch decided again on them there: no racing unit can spend
    // from them in between (docs/engine.md, Budgets and caps racing).
    const reads = new FundingReads();
    const first = decide(items, { ...state, spent: reads.lookup });
    const funding = reads.ranges(offers);
    let decision = first;
    const more = async (s: StoreSession) => {
      if (funding.ranges.length > 0) {
        const totals = await s.funding.hold(partner, funding.ranges);
        decision = decide(items, { ...state, spent: spentFrom(funding, totals, ctx.options) });
      }
      const { records } = paymentsOf(ctx, items, decision.outcomes, { event_id, revisions });
      if (records.length > 0) {
        await s.payments.insert(partner, records);
        if (decision.funded.length > 0) {
          const paid = journalingLedger(ctx.options);
          paid.payAll(decision.funded);
          await s.funding.add(partner, storeChanges(paid, ctx.options.scale));
        }
        const now = ctx.clock();
        const event = cashbackCreated(event_id, now, ctx.options.timeZone, records);
        await s.outbox.add(partner, [event]);
      }
      await offersStill(s, revision);
    };
    // Behind the budgets it holds: a batch that waits for one waits here, not with a connection.
    const conflict = await ctx.budgets.run(funding.budgets, () =>
      commitBatch(ctx, {
        partner,
        accepted: first.accepted,
        source: 'transaction',
        lookback,
        more,
      }),
    );
    if (conflict !== undefined) return conflict;
    const { paid, errors } = paymentsOf(ctx, items, decision.outcomes, { event_id, revisions });
    const result: AddTransactionsResult = {
      event_id,
      payments: paid.map(
        (p): SeedPayment => ({
          cashback: p.cashback,
          payment_date: p.payment_date,
          transaction_id: p.transaction_id,
        }),
      ),
      errors: errorMap(errors),
      details: { payments: paid, errors },
    };
    return result;
  });
}

/** The outcomes of a batch split into payments, errors and the payment records to store. */
function paymentsOf(
  ctx: EngineContext,
  items: readonly ParseResult<ParsedTransaction>[],
  outcomes: ReturnType<typeof decide>['outcomes'],
  call: { readonly event_id: string; readonly revisions: ReadonlyMap<number, number> },
): { paid: Payment[]; errors: TransactionError[]; records: PaymentRecord[] } {
  const paid: Payment[] = [];
  const errors: TransactionError[] = [];
  const records: PaymentRecord[] = [];
  const scale = ctx.options.scale;
  outcomes.forEach((o, i) => {
    if (!o.ok) {
      errors.push(o.error);
      return;
    }
    const p = o.payment;
    // decide gives one outcome per item, in order; only a parsed transaction can be paid.
    const item = items[i];
    if (item === undefined || !item.ok)
      throw new Error(`decide paid item ${i}, which did not parse`);
    const location = item.value.location;
    paid.push(p);
    records.push({
      transaction_id: p.transaction_id,
      customer_id: p.customer_id,
      offer_id: p.offer_id,
      cashback_amount: cashbackText(o.cashback, scale),
      payment_date: p.payment_date,
      country: location?.country ?? '',
      city: location?.city ?? '',
      event_id: call.event_id,
      // The revision of the offers the batch was decided with (docs/concepts.md, Offer revisions).
      offer_revision: call.revisions.get(p.offer_id) ?? 1,
    });
  });
  return { paid, errors, records };
}
