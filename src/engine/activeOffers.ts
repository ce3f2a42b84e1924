import { dayInZone } from '../model/dateTime.js';
import type { EngineContext } from './EngineContext.js';
import type { SeedOffer } from './results.js';
import { seedOffer } from './seedShapes.js';

/**
 * `engine.activeOffers`: the offers that are active and not yet expired on the engine's day (its
 * clock in its time zone), in the partner API's shape.
 * @param ctx - the engine
 * @returns the offers by `offer_id`
 */
export async function activeOffers(ctx: EngineContext): Promise<readonly SeedOffer[]> {
  const set = await ctx.offers.current();
  const today = dayInZone(ctx.clock(), ctx.options.timeZone);
  return set.compiled.filter((o) => o.active && o.validTo >= today).map((o) => seedOffer(o.offer));
}
