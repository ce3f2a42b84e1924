import type { DecideState } from '../core/decide.js';
import { candidatesOfTx } from '../matching/candidates.js';
import type { CompiledOfferSet } from '../matching/compileOffers.js';
import { parseDateTime, type WallClock } from '../model/dateTime.js';
import type { ParsedTransaction, ParseResult } from '../model/parseTransaction.js';
import type { EngineContext } from './EngineContext.js';

/**
 * The activations a batch needs, in one store call: those of its customers for the candidate
 * offers that require activation; none is read when no candidate requires it.
 * @param ctx - the engine
 * @param partner - the tenant
 * @param items - the parsed batch
 * @param offers - the offers it is decided with
 * @returns the lookup `decide` reads, or `undefined` when no candidate requires activation
 * @throws Error when the store returned an unreadable date
 */
export async function readActivations(
  ctx: EngineContext,
  partner: string,
  items: readonly ParseResult<ParsedTransaction>[],
  offers: CompiledOfferSet,
): Promise<DecideState['activation']> {
  if (!offers.compiled.some((o) => o.requiresActivation)) return undefined;
  const customerIds = new Set<string>();
  const offerIds = new Set<number>();
  for (const item of items) {
    if (!item.ok) continue;
    let needed = false;
    for (const o of candidatesOfTx(offers, item.value) ?? []) {
      if (!o.requiresActivation) continue;
      offerIds.add(o.offerId);
      needed = true;
    }
    if (needed) customerIds.add(item.value.customerId);
  }
  if (customerIds.size === 0) return undefined;
  const records = await ctx.store.activations.get(partner, {
    customerIds: [...customerIds],
    offerIds: [...offerIds],
  });
  const tz = ctx.options.timeZone;
  const byPair = new Map<string, WallClock>();
  for (const r of records) {
    const when = parseDateTime(r.date, tz);
    if (typeof when === 'string') {
      throw new Error(`Store returned an activation of offer ${r.offer_id} with date '${r.date}'`);
    }
    byPair.set(pairKey(r.customer_id, r.offer_id), when);
  }
  return (customerId, offerId) => byPair.get(pairKey(customerId, offerId));
}

/** One key per (customer, offer): a customer id never holds a NUL (docs/concepts.md, Input rules). */
function pairKey(customerId: string, offerId: number): string {
  return `${customerId}\u0000${offerId}`;
}
