import { randomUUID } from 'node:crypto';
import { assertKnownKeys } from '../model/knownKeys.js';
import { wholeNumber } from '../model/wholeNumber.js';
import type { ClaimedDelivery, DeliveryRepository, Store } from '../store/index.js';
import { checkedFetch } from './addresses.js';
import { type AttemptContext, type AttemptResult, attempt } from './attempt.js';
import { type Endpoint, endpointsOf, type WebhookPartner } from './partners.js';
import { checkSchedule, DEFAULT_WEBHOOK_SCHEDULE, delayBefore } from './schedule.js';

/** One delivery attempt, as a dispatcher reports it (one log line each). @public */
export interface WebhookAttempt {
  /** The event id (`webhook-id`). */
  readonly event_id: string;
  /** The event type. */
  readonly type: string;
  /** The partner's application id. */
  readonly partner: string;
  /** Which attempt, from 1. */
  readonly attempt: number;
  /** The HTTP status, or null when no response came. */
  readonly status: number | null;
  /**
   * What follows: `delivered`; `retry` (at `next_attempt_at`); `dead` (dead-lettered);
   * `disabled` (a 410: the endpoint is off until its settings change; the event waits);
   * `lost` (the claim's lease passed before the outcome was recorded: another claim has it).
   */
  readonly outcome: 'delivered' | 'retry' | 'dead' | 'disabled' | 'lost';
  /** How long the attempt took, in milliseconds. */
  readonly duration_ms: number;
  /** When the next attempt is due (ISO 8601), for `retry`. */
  readonly next_attempt_at?: string;
  /** Why it failed, when it did. */
  readonly error?: string;
}

/** Options of {@link createWebhookDispatcher}. @public */
export interface WebhookDispatcherOptions {
  /** The store whose outbox is delivered; it must have `deliveries` (docs/stores.md). */
  readonly store: Store;
  /** The partners; those with a `webhook_url` get deliveries. */
  readonly partners: readonly WebhookPartner[];
  /**
   * The clock: attempts' times, timestamps and the schedule.
   * @defaultValue `() => new Date()`
   */
  readonly clock?: () => Date;
  /**
   * The HTTP client. A client of your own gets the addresses of each webhook host checked before
   * each attempt; the default one checks them as it connects, on the very answer it connects to
   * (docs/webhooks.md, Webhook URLs).
   * @defaultValue undici's `fetch` over connections that refuse non-public addresses
   */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * The delay before each attempt, in milliseconds: the first (usually 0), then one per retry;
   * after the last attempt fails the event is dead-lettered.
   * @defaultValue {@link DEFAULT_WEBHOOK_SCHEDULE}
   */
  readonly schedule?: readonly number[];
  /**
   * Jitter's random source, a number in [0, 1): each delay is moved by up to ±10 %.
   * @defaultValue `Math.random`
   */
  readonly random?: () => number;
  /**
   * How long an attempt waits for the response's status, in milliseconds; longer is a failure.
   * @defaultValue `15_000`
   */
  readonly timeoutMs?: number;
  /**
   * How many attempts run at once.
   * @defaultValue `8`
   */
  readonly concurrency?: number;
  /**
   * How long a claim holds its events, in milliseconds: past it, events of a dispatcher that
   * crashed are claimed again. More than `timeoutMs`.
   * @defaultValue `timeoutMs × 2 + 30_000`
   */
  readonly leaseMs?: number;
  /**
   * How often `start()` looks for due events when there were none, in milliseconds.
   * @defaultValue `1_000`
   */
  readonly pollMs?: number;
  /**
   * Allows http and local (loopback, private) addresses: for development and tests only.
   * @defaultValue `false`
   */
  readonly allowLocalUrls?: boolean;
  /** Called after every attempt (one log line each: see {@link formatWebhookAttempt}). */
  readonly onAttempt?: (attempt: WebhookAttempt) => void;
  /** Called when a round of `start()` fails (the store unreachable); it is tried again later. */
  readonly onError?: (error: unknown) => void;
}

/** A webhook dispatcher: delivers a store's outbox to the partners' endpoints. @public */
export interface WebhookDispatcher {
  /**
   * Delivers what is due now, until nothing is: for tests and cron jobs.
   * @returns how many attempts were made
   */
  runOnce(): Promise<number>;
  /** Delivers in the background, every `pollMs` when idle, until `stop()`. */
  start(): void;
  /**
   * Stops `start()`'s loop: no new claims; resolves once the attempts in flight have finished
   * and been recorded (each is bounded by `timeoutMs`).
   */
  stop(): Promise<void>;
  /**
   * Replaces the partners (a reloaded partners file). An endpoint a 410 disabled is enabled
   * again when its URL or secrets changed.
   * @throws TypeError for a bad partner; the partners in use are kept
   */
  setPartners(partners: readonly WebhookPartner[]): void;
  /** The partners whose endpoint a 410 Gone disabled. */
  disabled(): readonly string[];
}

const KNOWN_KEYS = [
  'store',
  'partners',
  'clock',
  'fetch',
  'schedule',
  'random',
  'timeoutMs',
  'concurrency',
  'leaseMs',
  'pollMs',
  'allowLocalUrls',
  'onAttempt',
  'onError',
] as const;

function fn<T>(value: T | undefined, name: string): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`${name} must be a function`);
  }
  return value;
}

/**
 * Creates a webhook dispatcher (docs/webhooks.md): it claims due outbox events with a lease,
 * sends each to its partner's endpoint signed per Standard Webhooks, and records the outcome:
 * delivered on a 2xx; otherwise retried on the schedule (`Retry-After` honoured on 429 and 503),
 * and dead-lettered after the last attempt. A 410 disables the partner's endpoint until its
 * settings change. Delivery is at least once: receivers deduplicate on `webhook-id`.
 * @param options - the store, the partners and how to deliver
 * @returns the dispatcher, not started
 * @throws TypeError for an unknown option, a store without `deliveries`, a bad partner (URL not
 *   https or not public, a secret not `whsec_…` of 24 bytes or more) or a bad option value
 * @example
 * ```ts
 * const dispatcher = createWebhookDispatcher({
 *   store,
 *   partners: [{ application_id: 'bank', webhook_url: 'https://bank.example/hooks', webhook_secret }],
 *   onAttempt: (a) => console.log(formatWebhookAttempt(a)),
 * });
 * dispatcher.start();
 * // … on shutdown:
 * await dispatcher.stop();
 * ```
 * @public
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  assertKnownKeys(options, KNOWN_KEYS, 'createWebhookDispatcher options');
  const deliveries: DeliveryRepository | undefined = options.store?.deliveries;
  if (deliveries === undefined) {
    throw new TypeError('store must have `deliveries` (the memory and PostgreSQL stores do)');
  }
  const allowLocalUrls = options.allowLocalUrls ?? false;
  if (typeof allowLocalUrls !== 'boolean') throw new TypeError('allowLocalUrls must be a boolean');
  let endpoints = endpointsOf(options.partners, allowLocalUrls);
  const clock = fn(options.clock, 'clock') ?? (() => new Date());
  const random = fn(options.random, 'random') ?? Math.random;
  const ownFetch = fn(options.fetch, 'fetch');
  const onAttempt = fn(options.onAttempt, 'onAttempt');
  const onError = fn(options.onError, 'onError');
  const schedule =
    options.schedule === undefined ? DEFAULT_WEBHOOK_SCHEDULE : checkSchedule(options.schedule);
  const timeoutMs = wholeNumber(options.timeoutMs ?? 15_000, 'timeoutMs', { min: 1 });
  const concurrency = wholeNumber(options.concurrency ?? 8, 'concurrency', { min: 1 });
  const leaseMs = wholeNumber(options.leaseMs ?? timeoutMs * 2 + 30_000, 'leaseMs', {
    min: timeoutMs + 1,
  });
  const pollMs = wholeNumber(options.pollMs ?? 1_000, 'pollMs', { min: 1 });
  const ctx: AttemptContext = {
    fetch: ownFetch ?? checkedFetch(allowLocalUrls),
    checkBeforeSend: ownFetch !== undefined && !allowLocalUrls,
    now: clock,
    timeoutMs,
  };
  /** Partner → the settings a 410 disabled. */
  const gone = new Map<string, string>();

  const enabled = (): string[] =>
    [...endpoints.values()].filter((e) => gone.get(e.partner) !== e.settings).map((e) => e.partner);

  /** Records an attempt's outcome; returns what the log says. */
  const record = async (
    event: ClaimedDelivery,
    endpoint: Endpoint,
    result: AttemptResult,
    startedAt: number,
  ): Promise<WebhookAttempt> => {
    const now = clock().getTime();
    const base = {
      event_id: event.id,
      type: event.type,
      partner: event.partner,
      attempt: event.attempt,
      status: result.status,
      duration_ms: Math.max(0, now - startedAt),
      ...(result.error === undefined ? {} : { error: result.error }),
    };
    if (result.ok) {
      const n = await deliveries.delivered([event], now);
      return { ...base, outcome: n === 1 ? 'delivered' : 'lost' };
    }
    if (result.gone) {
      gone.set(endpoint.partner, endpoint.settings);
      // The event waits, due at once, for the endpoint to come back; the attempt is not counted.
      await deliveries.release([event], now);
      return { ...base, outcome: 'disabled' };
    }
    const delay = delayBefore(schedule, event.attempt + 1, random);
    if (delay === undefined) {
      const kept = await deliveries.deadLetter(event, { now, error: result.error ?? 'failed' });
      return { ...base, outcome: kept ? 'dead' : 'lost' };
    }
    const nextAttemptAt = now + Math.max(delay, result.retryAfterMs ?? 0);
    const kept = await deliveries.retry(event, { nextAttemptAt, error: result.error ?? 'failed' });
    return kept
      ? { ...base, outcome: 'retry', next_attempt_at: new Date(nextAttemptAt).toISOString() }
      : { ...base, outcome: 'lost' };
  };

  const deliver = async (event: ClaimedDelivery): Promise<void> => {
    const startedAt = clock().getTime();
    const endpoint = endpoints.get(event.partner);
    if (endpoint === undefined || gone.get(event.partner) === endpoint.settings) {
      // The partner's webhook was removed or disabled since the claim.
      await deliveries.release([event], startedAt);
      return;
    }
    const result = await attempt(ctx, endpoint, event);
    const line = await record(event, endpoint, result, startedAt);
    onAttempt?.(line);
  };

  let stopping = false;
  /** Claims and delivers batches until nothing is due (or `halt()` after a batch). */
  const drain = async (halt: () => boolean): Promise<number> => {
    let attempts = 0;
    for (;;) {
      const partners = enabled();
      if (partners.length === 0) break;
      const now = clock().getTime();
      const claims = await deliveries.claim({
        partners,
        now,
        leaseUntil: now + leaseMs,
        lease: randomUUID(),
        limit: concurrency,
      });
      if (claims.length === 0) break;
      await Promise.all(claims.map(deliver));
      attempts += claims.length;
      if (halt()) break;
    }
    return attempts;
  };

  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const run = async (): Promise<void> => {
    while (!stopping) {
      let made = 0;
      try {
        made = await drain(() => stopping);
      } catch (e) {
        onError?.(e);
      }
      if (stopping) break;
      if (made > 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };

  return {
    runOnce: () => drain(() => false),
    start: () => {
      if (loop !== undefined) return;
      stopping = false;
      loop = run();
    },
    stop: async () => {
      stopping = true;
      wake?.();
      await loop;
      loop = undefined;
    },
    setPartners: (partners) => {
      endpoints = endpointsOf(partners, allowLocalUrls);
    },
    disabled: () =>
      [...endpoints.values()]
        .filter((e) => gone.get(e.partner) === e.settings)
        .map((e) => e.partner),
  };
}

/**
 * One attempt as a log line: event id, partner, attempt, status, outcome, duration and, for a
 * retry, the next attempt.
 * @param a - the attempt
 * @returns the line, without a newline
 * @public
 */
export function formatWebhookAttempt(a: WebhookAttempt): string {
  const parts = [
    `webhook ${a.event_id}`,
    `partner=${a.partner}`,
    `type=${a.type}`,
    `attempt=${a.attempt}`,
    `status=${a.status ?? '-'}`,
    `outcome=${a.outcome}`,
    `duration_ms=${a.duration_ms}`,
  ];
  if (a.next_attempt_at !== undefined) parts.push(`next_attempt_at=${a.next_attempt_at}`);
  if (a.error !== undefined) parts.push(`error=${JSON.stringify(a.error)}`);
  return parts.join(' ');
}
