import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import type { AppEnv, HttpApp } from './env.js';
import { KeyChecks } from './keyChecks.js';
import { authenticate } from './middleware/auth.js';
import { handleErrors, methodNotAllowed, notFound } from './middleware/errors.js';
import { requestLog } from './middleware/logging.js';
import { type HttpAppOptions, resolveOptions } from './options.js';
import { batchRoutes } from './routes/batches.js';
import { metaRoutes } from './routes/meta.js';
import { offerRoutes } from './routes/offers.js';
import { paymentRoutes } from './routes/payments.js';
import { tokenRoutes } from './routes/tokens.js';
import { TokenVerifier } from './tokenVerifier.js';

/** The key checks of each app made here, for the tests of what token requests keep in memory. */
export const keyChecksOf = new WeakMap<HttpApp, KeyChecks>();

/**
 * The partner HTTP API (docs/http.md) as a Hono app: `GET /get-token`,
 * `POST /transactions-history`, `POST /customers/` (and `/customers`), `POST /activations`,
 * `POST /transactions`, `POST /returns`, `GET /cashback-payments`, `GET /clawbacks`,
 * `GET /payments/{transaction_id}/history`, `GET /active-offers`, plus `GET /openapi.json` and
 * `GET /healthz`.
 * Use it as a fetch handler in any runtime (`app.fetch`), mount it in your own Hono app
 * (`parent.all('/cashback/*', mount(app.fetch))` with `mount` from `hono/mount`), or start it
 * on Node with `serveHttp`.
 *
 * The partner of every request is its token's subject; nothing in a body can name another.
 * Request-level failures answer `{"error": {"code", "message", "details"}}` with 400, 401, 404,
 * 405, 413, 415, 429, 500 or 503 (see docs/http.md); per-item problems stay in 200 responses.
 * @param options - engine, partner registry, token secret and lifetime, limits, logger
 * @returns the app
 * @throws TypeError naming the problem: an unknown option or limit, a missing engine, partner
 * registry or token secret, a token secret shorter than 32 bytes, or a limit that is not a whole
 * number ≥ 1
 * @example
 * ```ts
 * import { createEngine, createMemoryPartners } from 'cashback-engine/engine';
 * import { createHttpApp, hashApplicationKey, serveHttp } from 'cashback-engine/http';
 *
 * const partners = createMemoryPartners([
 *   { application_id: 'bank-a', application_key_hash: await hashApplicationKey('s3cret-key') },
 * ]);
 * const app = createHttpApp({
 *   engine: createEngine({ partners }),
 *   partners,
 *   tokenSecret: 'a-token-secret-of-at-least-32-bytes!',
 * });
 * const server = await serveHttp(app, { port: 8080 });
 * ```
 * @public
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const resolved = resolveOptions(options);
  const { engine, partners, limits, logger } = resolved;
  // The HMAC key imported once: jose would import raw bytes again on every sign and verify.
  const key = crypto.subtle.importKey(
    'raw',
    resolved.secret,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  const auth = authenticate(new TokenVerifier(key, resolved.clock), partners);

  const app: HttpApp = new Hono<AppEnv>();
  app.use(requestId());
  if (logger !== undefined) app.use(requestLog(logger));
  app.use(methodNotAllowed(app));
  app.onError(handleErrors(logger));
  app.notFound(notFound);
  const checks = new KeyChecks(partners, limits);
  keyChecksOf.set(app, checks);
  app.route('/', tokenRoutes(resolved, key, checks));
  app.route('/', batchRoutes(engine, limits, auth));
  app.route('/', paymentRoutes(engine, auth));
  app.route('/', offerRoutes(engine, auth));
  app.route('/', metaRoutes());
  return app;
}
