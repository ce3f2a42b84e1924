import type { EngineContext } from './EngineContext.js';
import { parsePaymentsQuery } from './paymentsQuery.js';
import type { PaymentsPage, PaymentsQuery } from './results.js';
import { cashbackPaymentRecord } from './seedShapes.js';

/**
 * `engine.listPayments` (`GET /cashback-payments`): a page of the partner's payments whose
 * payment day lies in the range, each with its current cashback.
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param query - the range and the page, as sent
 * @returns the page in the partner API's shape
 * @throws InvalidRequestError for a bad query
 */
export async function listPayments(
  ctx: EngineContext,
  partner: string,
  query: PaymentsQuery,
): Promise<PaymentsPage> {
  const q = parsePaymentsQuery(query);
  const page = await ctx.store.payments.list(partner, {
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
    transactions: page.items.map(cashbackPaymentRecord),
  };
}
