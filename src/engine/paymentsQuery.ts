import { z } from 'zod';
import { zodIssues, zodMessage } from '../model/parseCustomer.js';
import { DaySchema } from '../model/schemas.js';
import { InvalidRequestError, type PaymentsQuery } from './results.js';

/** A page input: a whole number in [1, max], as a number or a digit string; may be absent. */
function pageNumber(max: number) {
  return z
    .unknown()
    .transform((value, ctx): number | undefined => {
      if (value === undefined) return undefined;
      const n = typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : value;
      let message: string | undefined;
      if (typeof n !== 'number' || !Number.isInteger(n)) message = 'must be a whole number';
      else if (n < 1) message = 'must be at least 1';
      else if (n > max) message = `must be at most ${max}`;
      if (message === undefined) return n as number;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .optional();
}

/** Largest page size of a payments listing (docs/engine.md). @public */
export const MAX_PAGE_SIZE = 1000;

/**
 * The inputs of a payments listing (`GET /cashback-payments`), as numbers or digit strings (a query string's or a
 * header's values): `date_from` ≤ `date_to`, real days; pages from 1, `page_size` at most 1000;
 * `status` `pending` or `confirmed`, when given.
 * @public
 */
export const PaymentsQuerySchema = z.object({
  date_from: DaySchema,
  date_to: DaySchema,
  current_page: pageNumber(1_000_000_000),
  page_size: pageNumber(MAX_PAGE_SIZE),
  status: z
    .enum(['pending', 'confirmed'], { error: "must be 'pending' or 'confirmed'" })
    .optional(),
});

/**
 * The issue of a range that ends before it starts, checked apart from the fields' own issues so
 * that it is named even when another field (a page, the status) is bad too.
 */
function rangeIssue(query: PaymentsQuery): { path: string; message: string } | undefined {
  const fields = query as { readonly date_from?: unknown; readonly date_to?: unknown } | null;
  const from = DaySchema.safeParse(fields?.date_from);
  const to = DaySchema.safeParse(fields?.date_to);
  if (!from.success || !to.success || from.data <= to.data) return undefined;
  return { path: 'date_to', message: 'must not be before date_from' };
}

/** A validated payments query with defaults filled in. */
export interface ValidPaymentsQuery {
  readonly date_from: string;
  readonly date_to: string;
  readonly current_page: number;
  readonly page_size: number;
  readonly status: 'pending' | 'confirmed' | undefined;
}

/** Validates a payments query; throws {@link InvalidRequestError} naming every bad field. */
export function parsePaymentsQuery(query: PaymentsQuery): ValidPaymentsQuery {
  const r = PaymentsQuerySchema.safeParse(query ?? {}, { error: zodMessage });
  // A query that is not an object at all has its issue at the root: name it `query`.
  const issues = r.success
    ? []
    : zodIssues(r.error.issues).map((i) => (i.path === '' ? { ...i, path: 'query' } : i));
  const range = typeof query === 'object' ? rangeIssue(query) : undefined;
  if (range !== undefined) issues.push(range);
  if (!r.success || range !== undefined) throw new InvalidRequestError(issues);
  return {
    date_from: r.data.date_from,
    date_to: r.data.date_to,
    current_page: r.data.current_page ?? 1,
    page_size: r.data.page_size ?? 100,
    status: r.data.status,
  };
}
