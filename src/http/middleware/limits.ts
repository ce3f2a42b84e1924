import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../env.js';
import { errorResponse, HttpProblem } from '../errors.js';
import { JsonBodyLimitError, parseJsonBody } from '../jsonBody.js';
import type { ResolvedLimits } from '../options.js';

/** 415 unless the body is declared JSON (parameters such as `charset` are fine). */
export const jsonContentType: MiddlewareHandler<AppEnv> = async (c, next) => {
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
};

/**
 * 413 past `bodyBytes`; 400 when a chunked body breaks off. A body with a content-length (which
 * Node has checked is what arrives) is measured by its header: Hono's `bodyLimit` would read it
 * through web streams, slower than @hono/node-server's own read. `bodyLimit` counts chunked ones.
 * @param bodyBytes - the largest body
 * @returns the middleware
 */
export function byteLimit(bodyBytes: number): MiddlewareHandler<AppEnv> {
  const tooLarge = (c: Context) =>
    errorResponse(c, 'body_too_large', `The body is larger than ${bodyBytes} bytes`);
  const limit = bodyLimit({ maxSize: bodyBytes, onError: tooLarge });
  return async (c, next) => {
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
  };
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

/**
 * The body as a JSON array of at most `limits.batchItems` items nesting at most
 * `limits.nestingDepth` levels. The reading stops at the first item or bracket past a limit.
 * @param c - the request's context
 * @param limits - the app's limits
 * @returns the items
 * @throws HttpProblem for a body that broke off, is not JSON, is not an array, or is over a limit
 */
export async function readBatch(c: Context, limits: ResolvedLimits): Promise<unknown[]> {
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
    body = parseJsonBody(new Uint8Array(bytes), {
      items: limits.batchItems,
      depth: limits.nestingDepth,
    });
  } catch (err) {
    if (!(err instanceof JsonBodyLimitError)) {
      throw new HttpProblem('invalid_json', 'The body is not valid JSON');
    }
    if (err.limit === 'items') {
      throw new HttpProblem(
        'batch_too_large',
        `A request may carry at most ${limits.batchItems} items, got ${err.found}`,
      );
    }
    throw new HttpProblem(
      'nesting_too_deep',
      `The body nests arrays and objects deeper than ${limits.nestingDepth} levels`,
    );
  }
  if (!Array.isArray(body)) {
    throw new HttpProblem('invalid_body', 'The body must be a JSON array of items', [
      { path: 'body', message: `must be an array, got ${describe(body)}` },
    ]);
  }
  return body;
}
