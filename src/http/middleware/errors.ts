import type { Context, ErrorHandler, MiddlewareHandler, NotFoundHandler } from 'hono';
import { methodNotAllowed as honoMethodNotAllowed } from 'hono/method-not-allowed';
import { StorageFullError, StoreUnavailableError } from '../../store/errors.js';
import type { AppEnv, HttpApp } from '../env.js';
import { errorResponse, HttpProblem } from '../errors.js';
import type { HttpLogger } from '../options.js';

/** Seconds a client is asked to wait after a 503 of the store. */
const STORE_RETRY_AFTER = '5';

/**
 * The app's error handler: an {@link HttpProblem} is answered as it says; a store that refused
 * the whole call (nothing was stored, or, when the connection was lost at commit, maybe all of
 * it) is a 503 with `Retry-After`; anything else is logged and answered 500 without internals.
 * @param logger - where failures are logged, if anywhere
 * @returns the handler for `app.onError`
 */
export function handleErrors(logger: HttpLogger | undefined): ErrorHandler<AppEnv> {
  return (err, c) => {
    if (err instanceof HttpProblem) {
      return errorResponse(c, err.code, err.message, err.details, err.headers);
    }
    if (err instanceof StorageFullError || err instanceof StoreUnavailableError) {
      const message =
        err instanceof StorageFullError
          ? 'Storage is full; nothing of this request was stored'
          : err.outcomeUnknown
            ? 'Storage became unavailable while this request was being stored; it may have ' +
              'been stored whole: send it again once storage is back (a transaction already ' +
              'stored comes back as duplicate_transaction, and its payment is listed)'
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
  };
}

/** The JSON 404 of a path no route has. */
export const notFound: NotFoundHandler<AppEnv> = (c: Context) =>
  errorResponse(c, 'not_found', `No route ${c.req.method} ${c.req.path}`);

/**
 * Hono's method-not-allowed middleware with the app's error body: a known path asked with another
 * method is answered 405 with `Allow`.
 * @param app - the app whose routes are known
 * @returns the middleware
 */
export function methodNotAllowed(app: HttpApp): MiddlewareHandler<AppEnv> {
  return honoMethodNotAllowed<AppEnv>({
    app,
    onMethodNotAllowed: (c, methods) =>
      errorResponse(
        c,
        'method_not_allowed',
        `${c.req.method} is not allowed on ${c.req.path}; use ${methods[0]}`,
        [],
        { Allow: methods.join(', ') },
      ),
  });
}
