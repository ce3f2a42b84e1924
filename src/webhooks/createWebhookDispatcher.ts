import { assertKnownKeys } from '../model/knownKeys.js';
import { wholeNumber } from '../model/wholeNumber.js';
import type { DeliveryRepository, Store } from '../store/index.js';
import { checkedFetch } from './addresses.js';
import type { AttemptContext } from './attempt.js';
import { type DispatcherState, partnersWhere } from './DispatcherState.js';
import { drainDue } from './drainDue.js';
import { endpointsOf, type WebhookPartner } from './partners.js';
import { pollLoop } from './pollLoop.js';
import { checkSchedule, DEFAULT_WEBHOOK_SCHEDULE } from './schedule.js';
import type { WebhookAttempt } from './WebhookAttempt.js';

// The attempt and its log line are their own module; the package exports them from here.
export { formatWebhookAttempt, type WebhookAttempt } from './WebhookAttempt.js';

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
  const endpoints = endpointsOf(options.partners, allowLocalUrls);
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
  const state: DispatcherState = {
    deliveries,
    clock,
    random,
    schedule,
    attempt: ctx,
    concurrency,
    leaseMs,
    onAttempt,
    endpoints,
    gone: new Map(),
  };
  const loop = pollLoop((halt) => drainDue(state, halt), pollMs, onError);

  return {
    runOnce: () => drainDue(state, () => false),
    start: loop.start,
    stop: loop.stop,
    setPartners: (partners) => {
      state.endpoints = endpointsOf(partners, allowLocalUrls);
    },
    disabled: () => partnersWhere(state, true),
  };
}
