import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The code of a request-level error (docs/http.md, "Errors"). Per-item problems never use these: they stay
 * inside a 200 response, in the `errors` / `Errors` maps.
 * @public
 */
export type HttpErrorCode =
  | 'invalid_json'
  | 'invalid_body'
  | 'invalid_query'
  | 'invalid_credentials'
  | 'unauthorized'
  | 'not_found'
  | 'payment_not_found'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'batch_too_large'
  | 'nesting_too_deep'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'busy'
  | 'storage_full'
  | 'store_unavailable'
  | 'internal';

/** One problem of a request-level error: which input, and why. @public */
export interface HttpErrorDetail {
  /** The input: a query or header name such as `date_from`, or `body`. */
  readonly path: string;
  /** What is wrong with it. */
  readonly message: string;
}

/**
 * The one body of every request-level error: `{"error": {"code", "message", "details"}}`.
 * @public
 */
export interface HttpErrorBody {
  /** The error. */
  readonly error: {
    /** Stable, machine-readable code. */
    readonly code: HttpErrorCode;
    /** Human-readable message; never contains internals, tokens or keys. */
    readonly message: string;
    /** The problems by input; empty when there is nothing more to say. */
    readonly details: readonly HttpErrorDetail[];
  };
}

/** The status of each code. */
export const STATUS: Readonly<Record<HttpErrorCode, ContentfulStatusCode>> = {
  invalid_json: 400,
  invalid_body: 400,
  invalid_query: 400,
  invalid_credentials: 401,
  unauthorized: 401,
  not_found: 404,
  payment_not_found: 404,
  method_not_allowed: 405,
  body_too_large: 413,
  batch_too_large: 413,
  nesting_too_deep: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  busy: 503,
  storage_full: 503,
  store_unavailable: 503,
  internal: 500,
};

/** Answers a request-level error in the one error shape. */
export function errorResponse(
  c: Context,
  code: HttpErrorCode,
  message: string,
  details: readonly HttpErrorDetail[] = [],
  headers?: Record<string, string>,
): Response {
  const body: HttpErrorBody = { error: { code, message, details } };
  return c.json(body, STATUS[code], headers);
}

/** Thrown inside a handler to answer a request-level error. */
export class HttpProblem extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly details: readonly HttpErrorDetail[] = [],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}
