import { dayInZone } from '../model/dateTime.js';
import { formatDay } from '../model/day.js';
import type { EngineContext } from './EngineContext.js';
import { parsePaymentsQuery } from './paymentsQuery.js';
import type { PaymentsPage, PaymentsQuery } from './results.js';
import { cashbackPaymentRecord } from './seedShapes.js';

/**
 * `engine.listPayments` (`GET /cashback-payments`): a page of the partner's payments whose
 * payment day lies in the range, each with its current cashback and its status as of the engine's
 * clock; with `status`, only the pending payments (payment day not begun) or the confirmed ones
 * (docs/concepts.md, The lifecycle of a payment).
 * @param ctx - the engine
 * @param partner - the tenant, already checked
 * @param query - the range, the page and the status, as sent
 * @returns the page in the partner API's shape
 * @throws InvalidRequestError for a bad query
 */
export async function listPayments(
  ctx: EngineContext,
  partner: string,
  query: PaymentsQuery,
): Promise<PaymentsPage> {
  const q = parsePaymentsQuery(query);
  const today = dayInZone(ctx.clock(), ctx.options.timeZone);
  // A status is a range of payment days: pending after today, confirmed up to it.
  let { date_from: from, date_to: to } = q;
  if (q.status === 'pending' && from <= formatDay(today)) from = formatDay(today + 1);
  if (q.status === 'confirmed' && to > formatDay(today)) to = formatDay(today);
  const page =
    from > to
      ? { total: 0, items: [] }
      : await ctx.store.payments.list(partner, {
          from,
          to,
          offset: (q.current_page - 1) * q.page_size,
          limit: q.page_size,
        });
  return {
    total_count: page.total,
    current_page: q.current_page,
    page_size: q.page_size,
    date_from: q.date_from,
    date_to: q.date_to,
    transactions: page.items.map((p) => cashbackPaymentRecord(p, today)),
  };
}
