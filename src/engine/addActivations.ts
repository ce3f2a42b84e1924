import {
  type ActivationBatch,
  screenActivations,
  screenActivationTargets,
} from '../core/activations.js';
import { parseDateTime, type WallClock } from '../model/dateTime.js';
import type { ActivationRecord } from '../store/records.js';
import type { EngineContext } from './EngineContext.js';
import { errorMap } from './errorMap.js';
import type { AddActivationsResult } from './results.js';
import { storedDate } from './transactionRecords.js';

/**
 * Stores activations (`POST /activations`, docs/concepts.md, Activation): each valid item whose
 * customer is registered and whose offer is loaded, dated by the engine's clock when it has no
 * `date`. A pair stored before keeps its date and counts as updated.
 * @param ctx - the engine
 * @param partner - the tenant
 * @param items - activations as sent
 * @returns the counts and the rejections
 * @throws TypeError when `items` is not an array
 */
export async function addActivations(
  ctx: EngineContext,
  partner: string,
  items: readonly unknown[],
): Promise<AddActivationsResult> {
  const tz = ctx.options.timeZone;
  const shaped = screenActivations(items, tz, false);
  const batch = await withTargets(ctx, partner, shaped);
  let now: WallClock | undefined;
  const records: ActivationRecord[] = batch.accepted.map((a) => {
    now ??= parseDateTime(ctx.clock().toISOString(), tz) as WallClock;
    return { customer_id: a.customerId, offer_id: a.offerId, date: storedDate(a.when ?? now) };
  });
  const counts =
    records.length === 0
      ? { added: 0, updated: 0 }
      : await ctx.store.activations.add(partner, records);
  return {
    Added: counts.added,
    Updated: counts.updated,
    Errors: errorMap(batch.errors),
    details: { errors: batch.errors },
  };
}

/** The batch with its unknown customers and offers rejected: one read of each. */
async function withTargets(
  ctx: EngineContext,
  partner: string,
  batch: ActivationBatch,
): Promise<ActivationBatch> {
  if (batch.accepted.length === 0) return batch;
  const ids = [...new Set(batch.accepted.map((a) => a.customerId))];
  const [customers, offers] = await Promise.all([
    ctx.store.customers.get(partner, ids),
    ctx.offers.current(),
  ]);
  const known = new Set(customers.map((c) => c.customer_id));
  const offerIds = new Set(offers.compiled.map((o) => o.offerId));
  return screenActivationTargets(batch, {
    hasCustomer: (id) => known.has(id),
    hasOffer: (id) => offerIds.has(id),
  });
}
