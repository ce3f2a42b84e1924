import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import type { HttpLogger } from '../options.js';

/** Longest application id written to a log line; a longer header is cut. */
const LOGGED_ID_LENGTH = 128;

/**
 * One log line per finished request: id, method, path (never the query string), status,
 * milliseconds and partner; for a token request that did not get a token, the application id it
 * asked for (never the key).
 * @param logger - where the lines go
 * @returns the middleware
 */
export function requestLog(logger: HttpLogger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const fields: Record<string, unknown> = {
      req_id: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      partner: c.get('partner'),
    };
    if (c.req.path === '/get-token' && c.res.status !== 200) {
      const id = c.req.header('applicationId');
      if (id !== undefined) fields.application_id = id.slice(0, LOGGED_ID_LENGTH);
    }
    logger.info(fields, 'request');
  };
}
