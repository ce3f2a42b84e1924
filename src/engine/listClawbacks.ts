import type { EngineContext } from './EngineContext.js';
import { parsePaymentsQuery } from './paymentsQuery.js';
import type { ClawbacksPage, ClawbacksQuery } from './results.js';
import { clawbackOf } from './seedShapes.js';

/**
 * `engine.listClawbacks` (`GET /clawbacks`): a page of the partner's clawbacks whose return day
 * lies in the range, paged as payments are (docs/concepts.md, Late returns).
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param query - the range and the page, as sent
 * @returns the page
 * @throws InvalidRequestError for a bad query
 */
export async function listClawbacks(
  ctx: EngineContext,
  partner: string,
  query: ClawbacksQuery,
): Promise<ClawbacksPage> {
  const q = parsePaymentsQuery(query);
  const page = await ctx.store.payments.clawbacks(partner, {
    from: q.date_from,
    to: q.date_to,
    offset: (q.current_page - 1) * q.page_size,
    limit: q.page_size,
  });
  return {
    total_count: page.total,
    current_page: q.current_page,
    page_size: q.page_size,
    date_from: q.date_from,
    date_to: q.date_to,
    clawbacks: page.items.map(clawbackOf),
  };
}
