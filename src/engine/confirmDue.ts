import { dayInZone } from '../model/dateTime.js';
import { formatDay } from '../model/day.js';
import type { EngineContext } from './EngineContext.js';
import { cashbackConfirmed } from './events.js';
import type { ConfirmDueResult } from './results.js';

/** Most payments in one `cashback.confirmed` event (docs/concepts.md, Confirmation). */
const CONFIRMED_PER_EVENT = 1000;

/**
 * `engine.confirmDue`: for every partner and every payment day that has begun (engine clock and
 * zone), puts `cashback.confirmed` events into the outbox with that day's payments not confirmed
 * yet and their final cashback, at most 1,000 records an event, each event in a unit of work of
 * its own with the payments it confirms. Each payment is in exactly one such event: confirming
 * again, restarting, or several instances on one store add none (docs/concepts.md, Confirmation).
 * It reads a page at a time, so memory stays bounded however many payments are due.
 * @param ctx - the engine
 * @returns how many events and payments it confirmed
 */
export async function confirmDue(ctx: EngineContext): Promise<ConfirmDueResult> {
  const now = ctx.clock();
  const through = formatDay(dayInZone(now, ctx.options.timeZone));
  let events = 0;
  let payments = 0;
  for (;;) {
    const event_id = ctx.ids();
    const taken = await ctx.store.transaction(async (s) => {
      const due = await s.confirmations.take({ through, limit: CONFIRMED_PER_EVENT, event_id });
      if (due === undefined) return 0;
      const event = cashbackConfirmed(event_id, now, ctx.options.timeZone, due.payments);
      await s.outbox.add(due.partner, [event]);
      return due.payments.length;
    });
    if (taken === 0) return { events, payments };
    events++;
    payments += taken;
  }
}
