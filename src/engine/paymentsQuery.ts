import { z } from 'zod';
import { _zodIssues, _zodMessage } from '../model/parseCustomer.js';
import { DaySchema } from '../model/schemas.js';
import { InvalidRequestError, type PaymentsQuery } from './results.js';

function pageNumber(max: number) {
  return z
    .union([
      z.number(),
      z
        .string()
        .regex(/^[0-9]{1,15}$/, 'must be a whole number')
        .transform(Number),
    ])
    .pipe(
      z
        .number()
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(max, `must be at most ${max}`),
    )
    .optional();
}

/** Largest page size of a payments listing (DESIGN.md §3). @public */
export const MAX_PAGE_SIZE = 1000;

/**
 * The inputs of a payments listing (seed 4.5), as numbers or digit strings (a query string's or a
 * header's values): `date_from` ≤ `date_to`, real days; pages from 1, `page_size` at most 1000.
 * @public
 */
export const PaymentsQuerySchema = z
  .object({
    date_from: DaySchema,
    date_to: DaySchema,
    current_page: pageNumber(1_000_000_000),
    page_size: pageNumber(MAX_PAGE_SIZE),
  })
  .superRefine((q, ctx) => {
    if (q.date_from > q.date_to) {
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'must not be before date_from' });
    }
  });

/** A validated payments query with defaults filled in. @internal */
export interface _PaymentsQuery {
  readonly date_from: string;
  readonly date_to: string;
  readonly current_page: number;
  readonly page_size: number;
}

/** Validates a payments query; throws {@link InvalidRequestError} naming every bad field. @internal */
export function _parsePaymentsQuery(query: PaymentsQuery): _PaymentsQuery {
  const r = PaymentsQuerySchema.safeParse(query ?? {}, { error: _zodMessage });
  if (!r.success) throw new InvalidRequestError(_zodIssues(r.error.issues));
  return {
    date_from: r.data.date_from,
    date_to: r.data.date_to,
    current_page: r.data.current_page ?? 1,
    page_size: r.data.page_size ?? 100,
  };
}
