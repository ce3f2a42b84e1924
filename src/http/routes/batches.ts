import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { CashbackEngine } from '../../engine/createEngine.js';
import type { AppEnv } from '../env.js';
import { byteLimit, jsonContentType, readBatch } from '../middleware/limits.js';
import type { ResolvedLimits } from '../options.js';

/**
 * The POST routes that take a batch (docs/http.md): `/transactions-history`, `/customers/` (and
 * `/customers`), `/activations`, `/transactions` and `/returns`. Each checks, in order, the token,
 * the content type, the byte limit, then reads the body as a JSON array within the item and
 * nesting limits.
 * @param engine - the engine the routes call
 * @param limits - the app's limits
 * @param authenticate - the token check
 * @returns the route group
 */
export function batchRoutes(
  engine: CashbackEngine,
  limits: ResolvedLimits,
  authenticate: MiddlewareHandler<AppEnv>,
): Hono<AppEnv> {
  const checks = [authenticate, jsonContentType, byteLimit(limits.bodyBytes)] as const;
  const customers = async (c: Context<AppEnv>) => {
    const r = await engine.upsertCustomers(c.get('partner'), await readBatch(c, limits));
    return c.json({ Added: r.Added, Updated: r.Updated, Errors: r.Errors });
  };
  return new Hono<AppEnv>()
    .post('/transactions-history', ...checks, async (c) => {
      const r = await engine.addHistory(c.get('partner'), await readBatch(c, limits));
      return c.json([{ event_id: r.event_id, errors: r.errors }]);
    })
    .post('/customers/', ...checks, customers)
    .post('/customers', ...checks, customers)
    .post('/activations', ...checks, async (c) => {
      const r = await engine.addActivations(c.get('partner'), await readBatch(c, limits));
      return c.json({ Added: r.Added, Updated: r.Updated, Errors: r.Errors });
    })
    .post('/transactions', ...checks, async (c) => {
      const r = await engine.addTransactions(c.get('partner'), await readBatch(c, limits));
      return c.json([{ event_id: r.event_id, payments: r.payments, errors: r.errors }]);
    })
    .post('/returns', ...checks, async (c) => {
      const r = await engine.addReturns(c.get('partner'), await readBatch(c, limits));
      return c.json([
        {
          event_id: r.event_id,
          adjustments: r.adjustments,
          clawbacks: r.clawbacks,
          errors: r.errors,
        },
      ]);
    });
}
