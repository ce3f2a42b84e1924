import { Hono, type MiddlewareHandler } from 'hono';
import type { CashbackEngine } from '../../engine/createEngine.js';
import { InvalidRequestError, type PaymentsQuery } from '../../engine/results.js';
import type { AppEnv } from '../env.js';
import { type HttpErrorDetail, HttpProblem } from '../errors.js';

/** The inputs of a payments listing, each from the query string or else a header. */
const PAGE_INPUTS = ['date_from', 'date_to', 'current_page', 'page_size'] as const;

/**
 * `GET /cashback-payments`: a page of the partner's payments (docs/http.md); a bad query is a 400
 * `invalid_query` naming every bad input.
 * @param engine - the engine the route calls
 * @param authenticate - the token check
 * @returns the route group
 */
export function paymentRoutes(
  engine: CashbackEngine,
  authenticate: MiddlewareHandler<AppEnv>,
): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/cashback-payments', authenticate, async (c) => {
    const query: Record<string, string> = {};
    for (const name of PAGE_INPUTS) {
      const value = c.req.query(name) ?? c.req.header(name);
      if (value !== undefined) query[name] = value;
    }
    try {
      return c.json(await engine.listPayments(c.get('partner'), query as unknown as PaymentsQuery));
    } catch (err) {
      if (!(err instanceof InvalidRequestError)) throw err;
      const details: HttpErrorDetail[] = err.issues.map((i) => ({
        path: i.path,
        message: i.message,
      }));
      throw new HttpProblem('invalid_query', 'The payments query is invalid', details);
    }
  });
}
