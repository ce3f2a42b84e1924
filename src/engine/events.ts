import type { Clawback } from '../core/returns/ReturnOutcome.js';
import { dayInZone } from '../model/dateTime.js';
import type { Offer } from '../model/schemas.js';
import type { OutboxEvent, PaymentRecord } from '../store/records.js';
import type { StoreSession } from '../store/Store.js';
import type { EngineContext } from './EngineContext.js';
import type { AdjustedPaymentRecord } from './results.js';
import { cashbackPaymentRecord, seedOffer } from './seedShapes.js';

/**
 * The `cashback.created` event of a paying call: its id is the call's `event_id`, its records the
 * call's payments in input order (docs/engine.md, decisions).
 * @param eventId - the call's event id
 * @param now - the clock's time
 * @param timeZone - the engine's zone, whose day the records' status is judged on
 * @param payments - the payments stored by the call
 * @returns the event
 */
export function cashbackCreated(
  eventId: string,
  now: Date,
  timeZone: string,
  payments: readonly PaymentRecord[],
): OutboxEvent {
  const timestamp = now.toISOString();
  const today = dayInZone(now, timeZone);
  return {
    id: eventId,
    type: 'cashback.created',
    payload: {
      type: 'cashback.created',
      event_id: eventId,
      timestamp,
      data: { records: payments.map((p) => cashbackPaymentRecord(p, today)) },
    },
    created_at: timestamp,
  };
}

/**
 * The `cashback.adjusted` event of a call whose returns adjusted payments: its id is the call's
 * `event_id`, its records one per adjustment in input order, each the payment with the cashback
 * after that return and the cashback before it (docs/concepts.md, Returns).
 * @param eventId - the call's event id
 * @param now - the clock's time
 * @param timeZone - the engine's zone
 * @param adjusted - per adjustment, the payment as stored before the call and the two cashbacks
 * @returns the event
 */
export function cashbackAdjusted(
  eventId: string,
  now: Date,
  timeZone: string,
  adjusted: readonly {
    readonly payment: PaymentRecord;
    readonly previous: string;
    readonly cashback: string;
  }[],
): OutboxEvent {
  const timestamp = now.toISOString();
  const today = dayInZone(now, timeZone);
  const records = adjusted.map(
    (a): AdjustedPaymentRecord => ({
      ...cashbackPaymentRecord({ ...a.payment, cashback_amount: a.cashback }, today),
      previous_cashback_amount: Number(a.previous),
    }),
  );
  return {
    id: eventId,
    type: 'cashback.adjusted',
    payload: { type: 'cashback.adjusted', event_id: eventId, timestamp, data: { records } },
    created_at: timestamp,
  };
}

/**
 * The `cashback.clawed_back` event of a call whose late returns recorded clawbacks
 * (docs/concepts.md, Late returns): one record per clawback, in input order.
 * @param eventId - its own id
 * @param timestamp - the clock's time, ISO 8601
 * @param clawbacks - the clawbacks
 * @returns the event
 */
export function cashbackClawedBack(
  eventId: string,
  timestamp: string,
  clawbacks: readonly Clawback[],
): OutboxEvent {
  return {
    id: eventId,
    type: 'cashback.clawed_back',
    payload: {
      type: 'cashback.clawed_back',
      event_id: eventId,
      timestamp,
      data: { records: clawbacks },
    },
    created_at: timestamp,
  };
}

/**
 * The `cashback.confirmed` event of one partner's payments of one payment day, confirmed by
 * `confirmDue` (docs/concepts.md, Confirmation): their final cashback, status `confirmed`.
 * @param eventId - its id, the one the payments were confirmed with
 * @param now - the clock's time
 * @param timeZone - the engine's zone
 * @param payments - the payments, at most 1,000
 * @returns the event
 */
export function cashbackConfirmed(
  eventId: string,
  now: Date,
  timeZone: string,
  payments: readonly PaymentRecord[],
): OutboxEvent {
  const timestamp = now.toISOString();
  const today = dayInZone(now, timeZone);
  return {
    id: eventId,
    type: 'cashback.confirmed',
    payload: {
      type: 'cashback.confirmed',
      event_id: eventId,
      timestamp,
      data: { records: payments.map((p) => cashbackPaymentRecord(p, today)) },
    },
    created_at: timestamp,
  };
}

/**
 * Writes the `offer.updated` events of changed offers: for every partner with a webhook, one per
 * offer, each with its own id, in the unit of work that stores the offers.
 * @param ctx - the engine (clock, ids, partners)
 * @param session - the unit of work
 * @param changed - the created or changed offers, ascending `offer_id`
 */
export async function addOfferUpdated(
  ctx: EngineContext,
  session: StoreSession,
  changed: readonly Offer[],
): Promise<void> {
  const timestamp = ctx.clock().toISOString();
  for (const p of await ctx.partners.list()) {
    if (p.webhook_url === undefined) continue;
    const events: OutboxEvent[] = changed.map((offer) => ({
      id: ctx.ids(),
      type: 'offer.updated',
      payload: { type: 'offer.updated', timestamp, data: seedOffer(offer) },
      created_at: timestamp,
    }));
    await session.outbox.add(p.application_id, events);
  }
}
