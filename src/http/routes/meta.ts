import { Hono } from 'hono';
import type { AppEnv } from '../env.js';
import { openApiDocument } from '../openapi.js';

/**
 * `GET /openapi.json` (the OpenAPI document, made on first use) and `GET /healthz`; neither
 * needs a token.
 * @returns the route group
 */
export function metaRoutes(): Hono<AppEnv> {
  let document: object | undefined;
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => {
      document ??= openApiDocument();
      return c.json(document);
    })
    .get('/healthz', (c) => c.json({ status: 'ok' }));
}
