import type { ClaimedDelivery } from '../store/index.js';
import { checkUrlAddresses } from './addresses.js';
import type { Endpoint } from './partners.js';
import { retryAfterMs } from './schedule.js';
import { signDelivery } from './signing.js';

/** What one attempt came to, before the dispatcher records it. */
export interface AttemptResult {
  /** The HTTP status, or null when no response came (refused, timed out, address refused). */
  readonly status: number | null;
  /** Delivered: a 2xx. */
  readonly ok: boolean;
  /** Why it failed, when it did. */
  readonly error?: string;
  /** A 410 Gone: the endpoint is to be disabled. */
  readonly gone: boolean;
  /** A `Retry-After` of a 429 or 503, in milliseconds. */
  readonly retryAfterMs?: number;
}

/** What an attempt needs from the dispatcher. */
export interface AttemptContext {
  readonly fetch: typeof globalThis.fetch;
  readonly now: () => Date;
  readonly timeoutMs: number;
  /** Whether to check the host's addresses before sending: a client that does not check them itself. */
  readonly checkBeforeSend: boolean;
}

/**
 * Sends one event to its endpoint: the body is the event's payload as JSON, signed with every
 * secret. Only a 2xx counts; a redirect is not followed; no answer within `timeoutMs` fails.
 */
export async function attempt(
  ctx: AttemptContext,
  endpoint: Endpoint,
  event: ClaimedDelivery,
): Promise<AttemptResult> {
  if (ctx.checkBeforeSend) {
    try {
      await checkUrlAddresses(endpoint.url, false);
    } catch (e) {
      return { status: null, ok: false, gone: false, error: (e as Error).message };
    }
  }
  const body = JSON.stringify(event.payload);
  const at = ctx.now();
  const headers = signDelivery(endpoint.signers, event.id, at, body);
  let response: Response;
  try {
    response = await ctx.fetch(endpoint.url.href, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'cashback-engine', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ctx.timeoutMs),
    });
  } catch (e) {
    const err = e as Error;
    const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
    const cause = (err.cause as Error | undefined)?.message;
    return {
      status: null,
      ok: false,
      gone: false,
      error: timedOut
        ? `no answer within ${ctx.timeoutMs} ms`
        : `request failed: ${cause ?? err.message}`,
    };
  }
  // The body is not read: free the connection.
  await response.body?.cancel().catch(() => undefined);
  const status = response.status;
  if (status >= 200 && status < 300) return { status, ok: true, gone: false };
  const retryAfter =
    status === 429 || status === 503
      ? retryAfterMs(response.headers.get('retry-after'), at.getTime())
      : undefined;
  const what =
    status >= 300 && status < 400
      ? `HTTP ${status} (redirects are not followed)`
      : `HTTP ${status}`;
  return {
    status,
    ok: false,
    gone: status === 410,
    error: what,
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
  };
}
