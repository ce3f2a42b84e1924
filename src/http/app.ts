import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { SignJWT } from 'jose';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { CashbackEngine } from '../engine/createEngine.js';
import type { PartnerRegistry } from '../engine/partners.js';
import { InvalidRequestError, type PaymentsQuery } from '../engine/results.js';
import { StorageFullError, StoreUnavailableError } from '../store/errors.js';
import { _parseJsonBody } from './_jsonBody.js';
import { _TokenVerifier } from './_tokens.js';
import { verifyApplicationKey } from './credentials.js';
import { errorResponse, type HttpErrorDetail, HttpProblem } from './errors.js';
import { openApiDocument } from './openapi.js';

/**
 * Where request logs go: any logger with pino's `info` / `error` signature (a pino logger fits).
 * Each request logs one line with its id, method, path (never the query string), status,
 * duration and partner; never a header, token, key or body.
 * @public
 */
export interface HttpLogger {
  /** One finished request. */
  info(fields: Record<string, unknown>, message?: string): void;
  /** A request that failed inside the server (answered 500). */
  error(fields: Record<string, unknown>, message?: string): void;
}

/** Request limits of the partner API; every field is optional. @public */
export interface HttpLimits {
  /**
   * Largest request body in bytes, chunked bodies included; a larger one is answered 413.
   * @defaultValue 5 MiB (`5 * 1024 * 1024`)
   */
  readonly bodyBytes?: number;
  /**
   * Most items in one POST body; a longer array is answered 413.
   * @defaultValue `1000`
   */
  readonly batchItems?: number;
  /**
   * Token requests with a wrong key allowed per application id per window; past them, every
   * token request for that id is answered 429 until the window ends, the right key included.
   * Requests with the right key do not count, so a partner's own token requests never use it up.
   * @defaultValue `10`
   */
  readonly tokenFailuresPerApplication?: number;
  /**
   * Token requests allowed per client address per window, whatever their outcome; more are
   * answered 429.
   * @defaultValue `30`
   */
  readonly tokenRequestsPerAddress?: number;
  /**
   * Length of the token rate-limit window in seconds.
   * @defaultValue `60`
   */
  readonly tokenWindowSeconds?: number;
}

/** Options of {@link createHttpApp}. @public */
export interface HttpAppOptions {
  /** The engine every route calls. */
  readonly engine: CashbackEngine;
  /**
   * Who may obtain tokens: a partner needs `application_key_hash` (see `hashApplicationKey`).
   * It is asked on every request, so a partner removed from it loses access at once, tokens
   * already issued included.
   */
  readonly partners: PartnerRegistry;
  /** Secret that signs tokens (HS256), at least 32 bytes; a string counts its UTF-8 bytes. */
  readonly tokenSecret: string | Uint8Array;
  /**
   * Token lifetime in seconds.
   * @defaultValue `3600`
   */
  readonly tokenTtl?: number;
  /** Body, batch and token-rate limits. */
  readonly limits?: HttpLimits;
  /**
   * Request log; none by default (the `cashback serve` command logs with pino).
   * @defaultValue no logging
   */
  readonly logger?: HttpLogger;
  /**
   * The time tokens are issued and checked at.
   * @defaultValue `() => new Date()`
   */
  readonly clock?: () => Date;
  /**
   * The client address that token requests are rate-limited by. Behind a proxy, read it from the
   * proxy's header here; the default never trusts a header.
   * @defaultValue the socket's remote address on Node (`@hono/node-server`), else `'unknown'`
   */
  readonly clientAddress?: (c: Context) => string | undefined;
}

/** Hono variables set by the app's middleware. @public */
export interface HttpAppVariables {
  /** The partner (application id) of a request with a valid token. */
  partner: string;
  /** The request's id, also sent back in `X-Request-Id`. */
  requestId: string;
}

/** The Hono app {@link createHttpApp} returns. @public */
export type HttpApp = Hono<{ Variables: HttpAppVariables }>;

/** Every route and its methods; a known path with another method is answered 405. */
const ROUTES: Readonly<Record<string, 'GET' | 'POST'>> = {
  '/get-token': 'GET',
  '/transactions-history': 'POST',
  '/customers/': 'POST',
  '/customers': 'POST',
  '/transactions': 'POST',
  '/cashback-payments': 'GET',
  '/active-offers': 'GET',
  '/openapi.json': 'GET',
  '/healthz': 'GET',
};

/** The inputs of a payments listing, each from the query string or else a header. */
const PAGE_INPUTS = ['date_from', 'date_to', 'current_page', 'page_size'] as const;

/** Seconds a client is asked to wait after a 503 of the store. */
const STORE_RETRY_AFTER = '5';

const UNAUTHORIZED = 'A valid token is required in the Token header';
const BAD_CREDENTIALS = 'Unknown application id or wrong application key';

function positiveInteger(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${name} must be a whole number of at least 1, got ${String(value)}`);
  }
  return value;
}

function secretBytes(secret: string | Uint8Array): Uint8Array {
  const bytes = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  if (!(bytes instanceof Uint8Array) || bytes.length < 32) {
    throw new TypeError('tokenSecret must be at least 32 bytes (HS256)');
  }
  return bytes;
}

/** The socket address on @hono/node-server (its `env.incoming`), without importing it. */
function socketAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/**
 * The partner HTTP API of the seed (DESIGN.md §6) as a Hono app: `GET /get-token`,
 * `POST /transactions-history`, `POST /customers/` (and `/customers`), `POST /transactions`,
 * `GET /cashback-payments`, `GET /active-offers`, plus `GET /openapi.json` and `GET /healthz`.
 * Use it as a fetch handler in any runtime (`app.fetch`), mount it in your own Hono app
 * (`parent.all('/cashback/*', mount(app.fetch))` with `mount` from `hono/mount`), or start it
 * on Node with `serveHttp`.
 *
 * The partner of every request is its token's subject; nothing in a body can name another.
 * Request-level failures answer `{"error": {"code", "message", "details"}}` with 400, 401, 404,
 * 405, 413, 415, 429 or 500 (see docs/http.md); per-item problems stay in 200 responses.
 * @param options - engine, partner registry, token secret and lifetime, limits, logger
 * @returns the app
 * @throws TypeError when the token secret is shorter than 32 bytes or a limit is not a whole number ≥ 1
 * @example
 * ```ts
 * import { createEngine, createMemoryPartners } from 'cashback-engine';
 * import { createHttpApp, hashApplicationKey, serveHttp } from 'cashback-engine/http';
 *
 * const partners = createMemoryPartners([
 *   { application_id: 'bank-a', application_key_hash: await hashApplicationKey('s3cret-key') },
 * ]);
 * const app = createHttpApp({ engine: createEngine(), partners, tokenSecret: process.env.CASHBACK_TOKEN_SECRET! });
 * const server = await serveHttp(app, { port: 8080 });
 * ```
 * @public
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const { engine, partners, logger } = options;
  // The HMAC key imported once: jose would import raw bytes again on every sign and verify.
  const key = crypto.subtle.importKey(
    'raw',
    secretBytes(options.tokenSecret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  const ttl = positiveInteger(options.tokenTtl, 'tokenTtl', 3600);
  const limits = options.limits ?? {};
  const bodyBytes = positiveInteger(limits.bodyBytes, 'limits.bodyBytes', 5 * 1024 * 1024);
  const batchItems = positiveInteger(limits.batchItems, 'limits.batchItems', 1000);
  const window = positiveInteger(limits.tokenWindowSeconds, 'limits.tokenWindowSeconds', 60);
  const perApplication = new RateLimiterMemory({
    points: positiveInteger(
      limits.tokenFailuresPerApplication,
      'limits.tokenFailuresPerApplication',
      10,
    ),
    duration: window,
  });
  const perAddress = new RateLimiterMemory({
    points: positiveInteger(limits.tokenRequestsPerAddress, 'limits.tokenRequestsPerAddress', 30),
    duration: window,
  });
  const clock = options.clock ?? (() => new Date());
  const clientAddress = options.clientAddress ?? socketAddress;
  const tokens = new _TokenVerifier(key, clock);

  const app: HttpApp = new Hono<{ Variables: HttpAppVariables }>();

  app.use(requestId());
  if (logger !== undefined) {
    app.use(async (c, next) => {
      const started = performance.now();
      await next();
      logger.info(
        {
          req_id: c.get('requestId'),
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          partner: c.get('partner'),
        },
        'request',
      );
    });
  }

  app.onError((err, c) => {
    if (err instanceof HttpProblem) {
      return errorResponse(c, err.code, err.message, err.details, err.headers);
    }
    // The store refused the whole call (nothing was stored): the client may send it again later.
    if (err instanceof StorageFullError || err instanceof StoreUnavailableError) {
      const message =
        err instanceof StorageFullError
          ? 'Storage is full; nothing of this request was stored'
          : 'Storage is unavailable; nothing of this request was stored';
      return errorResponse(c, err.code, message, [], { 'Retry-After': STORE_RETRY_AFTER });
    }
    logger?.error(
      {
        req_id: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        err: { name: err.name, message: err.message, stack: err.stack },
      },
      'request failed',
    );
    return errorResponse(c, 'internal', 'Internal server error');
  });
  app.notFound((c) => errorResponse(c, 'not_found', `No route ${c.req.method} ${c.req.path}`));

  /** 401 unless the Token header holds a valid token of a registered partner. */
  const authenticate: MiddlewareHandler<{ Variables: HttpAppVariables }> = async (c, next) => {
    const token = c.req.header('Token');
    if (token === undefined || token.length === 0 || token.length > 4096) {
      return errorResponse(c, 'unauthorized', UNAUTHORIZED);
    }
    const subject = await tokens.subject(token);
    if (subject === undefined || (await partners.get(subject)) === undefined) {
      return errorResponse(c, 'unauthorized', UNAUTHORIZED);
    }
    c.set('partner', subject);
    await next();
  };

  /** 413 past the byte limit; a chunked body is read up to it. */
  const tooLarge = (c: Context) =>
    errorResponse(c, 'body_too_large', `The body is larger than ${bodyBytes} bytes`);
  const limit = bodyLimit({ maxSize: bodyBytes, onError: tooLarge });

  /**
   * 415 unless the body is declared JSON; then 413 past the byte limit (chunked bodies too); 400
   * when a chunked body breaks off.
   */
  const jsonBody: MiddlewareHandler[] = [
    async (c, next) => {
      const type = c.req.header('content-type') ?? '';
      const media = type.split(';', 1)[0]?.trim().toLowerCase();
      if (media !== 'application/json') {
        return errorResponse(
          c,
          'unsupported_media_type',
          'The body must be JSON with content-type: application/json',
        );
      }
      await next();
    },
    async (c, next) => {
      // A body with a content-length (which Node has checked is what arrives) is measured by its
      // header; hono's bodyLimit would read it through web streams, about a tenth slower per
      // POST in bench/http.mjs than @hono/node-server's own read. bodyLimit counts chunked ones.
      const length = c.req.header('content-length');
      if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
        if (Number(length) > bodyBytes) return tooLarge(c);
        await next();
        return;
      }
      // Errors of the handlers after it never reach here (Hono answers them): what is caught is
      // the limit's own reading of a chunked body that broke off.
      try {
        return await limit(c, next);
      } catch (err) {
        if (err instanceof Error) throw unreadableBody();
        throw err;
      }
    },
  ];

  /** The body as a JSON array of at most `batchItems` items. */
  async function readBatch(c: Context): Promise<unknown[]> {
    let bytes: ArrayBuffer;
    try {
      bytes = await c.req.arrayBuffer();
    } catch {
      throw unreadableBody();
    }
    let body: unknown;
    try {
      // UTF-8 with one leading BOM dropped and bad bytes replaced, the same on every read path
      // (undici's Request.text() drops every leading BOM).
      body = _parseJsonBody(new Uint8Array(bytes));
    } catch {
      throw new HttpProblem('invalid_json', 'The body is not valid JSON');
    }
    if (!Array.isArray(body)) {
      throw new HttpProblem('invalid_body', 'The body must be a JSON array of items', [
        { path: 'body', message: `must be an array, got ${describe(body)}` },
      ]);
    }
    if (body.length > batchItems) {
      throw new HttpProblem(
        'batch_too_large',
        `A request may carry at most ${batchItems} items, got ${body.length}`,
      );
    }
    return body;
  }

  app.get('/get-token', async (c) => {
    const address = clientAddress(c) ?? 'unknown';
    const applicationId = c.req.header('applicationId');
    const applicationKey = c.req.header('applicationKey');
    // A point of the application id's budget is taken before the key is checked, so concurrent
    // guesses cannot all slip past it, and given back when the key is right: only failures count.
    try {
      await perAddress.consume(`address:${address}`);
      if (applicationId !== undefined) await perApplication.consume(`app:${applicationId}`);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      const seconds = String(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
      return errorResponse(
        c,
        'rate_limited',
        `Too many token requests; retry in ${seconds} s`,
        [],
        { 'Retry-After': seconds },
      );
    }
    if (!applicationId || !applicationKey) {
      return errorResponse(c, 'invalid_credentials', BAD_CREDENTIALS);
    }
    const partner = await partners.get(applicationId);
    const ok = await verifyApplicationKey(applicationKey, partner?.application_key_hash);
    if (!ok) return errorResponse(c, 'invalid_credentials', BAD_CREDENTIALS);
    await perApplication.reward(`app:${applicationId}`, 1);
    const now = Math.floor(clock().getTime() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(applicationId)
      .setIssuedAt(now)
      .setExpirationTime(now + ttl)
      .sign(await key);
    return c.json({ Token: token });
  });

  app.post('/transactions-history', authenticate, ...jsonBody, async (c) => {
    const r = await engine.addHistory(c.get('partner'), await readBatch(c));
    return c.json([{ event_id: r.event_id, errors: r.errors }]);
  });

  const customers = async (c: Context<{ Variables: HttpAppVariables }>) => {
    const r = await engine.upsertCustomers(c.get('partner'), await readBatch(c));
    return c.json({ Added: r.Added, Updated: r.Updated, Errors: r.Errors });
  };
  app.post('/customers/', authenticate, ...jsonBody, customers);
  app.post('/customers', authenticate, ...jsonBody, customers);

  app.post('/transactions', authenticate, ...jsonBody, async (c) => {
    const r = await engine.addTransactions(c.get('partner'), await readBatch(c));
    return c.json([{ event_id: r.event_id, payments: r.payments, errors: r.errors }]);
  });

  app.get('/cashback-payments', authenticate, async (c) => {
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

  app.get('/active-offers', authenticate, async (c) => c.json(await engine.activeOffers()));

  let document: object | undefined;
  app.get('/openapi.json', (c) => {
    document ??= openApiDocument();
    return c.json(document);
  });
  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  for (const [path, method] of Object.entries(ROUTES)) {
    const allow = method === 'GET' ? 'GET, HEAD' : method;
    app.all(path, (c) =>
      errorResponse(
        c,
        'method_not_allowed',
        `${c.req.method} is not allowed on ${path}; use ${method}`,
        [],
        { Allow: allow },
      ),
    );
  }
  return app;
}

/**
 * A body that ended before its length or last chunk: the client closed the connection or broke
 * the chunked encoding. Its fault, not the server's (and usually nobody is left to answer).
 */
function unreadableBody(): HttpProblem {
  return new HttpProblem('invalid_body', 'The body ended before it was complete', [
    { path: 'body', message: 'the connection closed or the chunked encoding broke off' },
  ]);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
