import { Hono, type MiddlewareHandler } from 'hono';
import type { CashbackEngine } from '../../engine/createEngine.js';
import type { AppEnv } from '../env.js';

/**
 * `GET /active-offers`: the offers in force today (docs/http.md).
 * @param engine - the engine the route calls
 * @param authenticate - the token check
 * @returns the route group
 */
export function offerRoutes(
  engine: CashbackEngine,
  authenticate: MiddlewareHandler<AppEnv>,
): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/active-offers', authenticate, async (c) =>
    c.json(await engine.activeOffers()),
  );
}
