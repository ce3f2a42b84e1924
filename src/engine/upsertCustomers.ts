import { screenCustomers } from '../core/customers.js';
import { customerRecord } from './customerRecords.js';
import type { EngineContext } from './EngineContext.js';
import { errorMap } from './errorMap.js';
import type { UpsertCustomersResult } from './results.js';

/**
 * `engine.upsertCustomers` (`POST /customers`): screens the customers and registers or replaces
 * the valid ones, in one store call.
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param customers - customers as sent
 * @returns the counts and the rejections
 * @throws TypeError when `customers` is not an array
 */
export async function upsertCustomers(
  ctx: EngineContext,
  partner: string,
  customers: readonly unknown[],
): Promise<UpsertCustomersResult> {
  const batch = screenCustomers(customers);
  const counts =
    batch.accepted.length === 0
      ? { added: 0, updated: 0 }
      : await ctx.store.customers.upsert(partner, batch.accepted.map(customerRecord));
  return {
    Added: counts.added,
    Updated: counts.updated,
    Errors: errorMap(batch.errors),
    details: { errors: batch.errors },
  };
}
