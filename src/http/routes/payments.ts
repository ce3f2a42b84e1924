import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { CashbackEngine } from '../../engine/createEngine.js';
import {
  type ClawbacksQuery,
  InvalidRequestError,
  type PaymentsQuery,
} from '../../engine/results.js';
import type { AppEnv } from '../env.js';
import { type HttpErrorDetail, HttpProblem } from '../errors.js';

/** The inputs of a listing paged as payments are, each from the query string or else a header. */
const PAGE_INPUTS = ['date_from', 'date_to', 'current_page', 'page_size'] as const;

/** The inputs of the payments listing: the page's, and the status filter. */
const PAYMENT_INPUTS = [...PAGE_INPUTS, 'status'] as const;

/** The named inputs of a request, each from the query string or else a header of that name. */
function inputs(c: Context<AppEnv>, names: readonly string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of names) {
    const value = c.req.query(name) ?? c.req.header(name);
    if (value !== undefined) query[name] = value;
  }
  return query;
}

/**
 * Runs an engine call whose bad input is a request-level 400 `invalid_query` naming every bad
 * input, with `message` as the error's message.
 */
async function answering<T>(message: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof InvalidRequestError)) throw err;
    const details: HttpErrorDetail[] = err.issues.map((i) => ({
      path: i.path,
      message: i.message,
    }));
    throw new HttpProblem('invalid_query', message, details);
  }
}

/**
 * The routes over a partner's payments (docs/http.md): `GET /cashback-payments` (a page of
 * payments, with their status and an optional `status` filter), `GET /clawbacks` (a page of the
 * clawbacks of late returns) and `GET /payments/{transaction_id}/history` (a payment as decided,
 * then its adjustments and clawbacks). A bad query or id is a 400 `invalid_query` naming every bad
 * input; a transaction without a payment of the partner is a 404 `payment_not_found`.
 * @param engine - the engine the routes call
 * @param authenticate - the token check
 * @returns the route group
 */
export function paymentRoutes(
  engine: CashbackEngine,
  authenticate: MiddlewareHandler<AppEnv>,
): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get('/cashback-payments', authenticate, async (c) => {
      // Strings as sent: the engine checks each, `status` included, and names the bad ones.
      const query = inputs(c, PAYMENT_INPUTS) as unknown as PaymentsQuery;
      const page = await answering('The payments query is invalid', () =>
        engine.listPayments(c.get('partner'), query),
      );
      return c.json(page);
    })
    .get('/clawbacks', authenticate, async (c) => {
      const query = inputs(c, PAGE_INPUTS) as unknown as ClawbacksQuery;
      const page = await answering('The clawbacks query is invalid', () =>
        engine.listClawbacks(c.get('partner'), query),
      );
      return c.json(page);
    })
    .get('/payments/:transaction_id/history', authenticate, async (c) => {
      const id = c.req.param('transaction_id');
      const history = await answering('The transaction id is invalid', () =>
        engine.paymentHistory(c.get('partner'), id),
      );
      if (history === undefined) {
        throw new HttpProblem(
          'payment_not_found',
          'No payment of this transaction: it was not paid, or not stored by this partner',
          [{ path: 'transaction_id', message: `no payment of '${id.trim()}'` }],
        );
      }
      return c.json(history);
    });
}
