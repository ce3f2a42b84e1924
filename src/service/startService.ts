import { type CashbackEngine, createEngine, type EngineOptions } from '../engine/createEngine.js';
import type { UpsertOffersResult } from '../engine/results.js';
import { createHttpApp } from '../http/app.js';
import type { HttpAppOptions } from '../http/options.js';
import { resolveServeOptions, type ServeOptions, serveHttp } from '../http/serve.js';
import { compileOffers } from '../matching/compileOffers.js';
import { assertKnownKeys } from '../model/knownKeys.js';
import type { Store } from '../store/index.js';
import type { WebhookDispatcher } from '../webhooks/createWebhookDispatcher.js';
import {
  type StartWebhookDispatcherOptions,
  startWebhookDispatcher,
} from '../webhooks/startWebhookDispatcher.js';
import {
  type ConfirmDueOptions,
  type ConfirmTimer,
  resolveConfirmDue,
  startConfirmTimer,
} from './confirmTimer.js';
import { gateEngine } from './engineGate.js';
import {
  type CheckedPartners,
  checkPartners,
  type ServicePartner,
  swappableRegistry,
} from './partners.js';

// What `ServiceOptions.webhooks` names: `cashback-engine/http`, which publishes this layer,
// exports them with it.
export type { StartWebhookDispatcherOptions, WebhookPartner } from '../webhooks/index.js';

/** Options of {@link startService}. @public */
export interface ServiceOptions {
  /** The store of the engine and of the webhook outbox; `stop()` closes it (see `closeStore`). */
  readonly store: Store;
  /** The partners: who may get tokens, and where their webhooks go. */
  readonly partners: readonly ServicePartner[];
  /** Secret that signs tokens (HS256), at least 32 bytes. */
  readonly tokenSecret: string | Uint8Array;
  /**
   * Offers to load at start (`engine.upsertOffers`: created and changed ones stored, all or
   * nothing).
   * @defaultValue none
   */
  readonly offers?: readonly unknown[];
  /**
   * The engine's options other than its store and partners (`timeZone`, `clock`, …).
   * @defaultValue `createEngine`'s defaults
   */
  readonly engine?: Omit<EngineOptions, 'store' | 'partners'>;
  /**
   * The HTTP app's options other than its engine, partners and token secret (`tokenTtl`,
   * `limits`, `logger`, `clock`, `clientAddress`).
   * @defaultValue `createHttpApp`'s defaults
   */
  readonly app?: Omit<HttpAppOptions, 'engine' | 'partners' | 'tokenSecret'>;
  /**
   * Where and how to listen (`serveHttp`'s options).
   * @defaultValue `serveHttp`'s defaults: 127.0.0.1:8080
   */
  readonly server?: ServeOptions;
  /**
   * The webhook dispatcher's options other than its store and partners (`allowLocalUrls`, `log`).
   * @defaultValue `startWebhookDispatcher`'s defaults
   */
  readonly webhooks?: Omit<StartWebhookDispatcherOptions, 'store' | 'partners'>;
  /**
   * How the service confirms due payments (`cashback.confirmed` events): it calls
   * `engine.confirmDue()` once it listens, then every `intervalMs` (`false`: never), logging
   * failures and trying again at the next tick; `stop()` ends it before the store closes.
   * @defaultValue `{ intervalMs: 60_000 }`, failures written to stderr
   */
  readonly confirmDue?: ConfirmDueOptions;
  /**
   * Whether `stop()` closes the store last. Leave it on unless the store is used after the
   * service stops.
   * @defaultValue `true`
   */
  readonly closeStore?: boolean;
}

/** What a service is told by {@link Service.reload}. @public */
export interface ServiceChanges {
  /**
   * The partners from now on, in place of every partner before.
   * @defaultValue the partners stay
   */
  readonly partners?: readonly ServicePartner[];
  /**
   * Offers to upsert: created and changed ones stored; offers left out are kept.
   * @defaultValue no offer changes
   */
  readonly offers?: readonly unknown[];
}

/** What a reload did. @public */
export interface ServiceReloaded {
  /** The application ids of the partners now, when partners were given. */
  readonly partners?: readonly string[];
  /** What `upsertOffers` did, when offers were given. */
  readonly offers?: UpsertOffersResult;
}

/** A running service, started by {@link startService}. @public */
export interface Service {
  /** Base address, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** The engine the routes call; its calls are refused once `stop()` has begun. */
  readonly engine: CashbackEngine;
  /**
   * Replaces the partners, then upserts the offers (so their `offer.updated` events go to the
   * partners given). Everything given is checked first: a bad partner or offer is an error and
   * changes nothing. From the moment it resolves, a removed partner's key and every token issued
   * to it are refused, a partner whose `application_key_hash` changed has the tokens of its old
   * key refused, a new partner's key works, and the dispatcher delivers to the new webhook
   * settings. Reloads run one after another.
   * @param changes - the partners, the offers, or both
   * @returns what changed
   * @throws TypeError for an unknown key or a bad partner (its webhook settings included);
   *   OfferValidationError for a bad offer; Error when the service is stopping
   */
  reload(changes: ServiceChanges): Promise<ServiceReloaded>;
  /**
   * Stops gracefully, in this order: stops accepting connections and lets requests in flight
   * finish (cut after `server.shutdownTimeoutMs`), and stops the confirmation timer (no
   * `confirmDue()` call starts any more; one in flight finishes); waits for a reload under way
   * and for the engine calls still running (each commits or rolls back whole; later ones are
   * refused with `StoreUnavailableError`); stops the webhook dispatcher (attempts in flight
   * finish and are recorded, the rest stays in the outbox); closes the store. The listening
   * socket is closed and the timer cleared before it returns its promise. Calling it again
   * returns the same promise.
   */
  stop(): Promise<void>;
}

const KEYS = [
  'store',
  'partners',
  'tokenSecret',
  'offers',
  'engine',
  'app',
  'server',
  'webhooks',
  'confirmDue',
  'closeStore',
] as const satisfies readonly (keyof ServiceOptions)[];

/** What {@link startService} checked before anything started. */
interface CheckedOptions {
  readonly partners: CheckedPartners;
  readonly confirmDue: ReturnType<typeof resolveConfirmDue>;
}

/** Checks what {@link startService} needs before anything starts. */
function checkOptions(options: ServiceOptions): CheckedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('startService options are required: store, partners and tokenSecret');
  }
  assertKnownKeys(options, KEYS, 'startService options');
  const store: unknown = options.store;
  if (store === null || typeof store !== 'object') {
    throw new TypeError('startService options: store is required (a Store)');
  }
  for (const name of ['engine', 'app', 'server', 'webhooks'] as const) {
    const value: unknown = options[name];
    if (value !== undefined && (value === null || typeof value !== 'object')) {
      throw new TypeError(`startService options: ${name} must be an object`);
    }
  }
  if (options.closeStore !== undefined && typeof options.closeStore !== 'boolean') {
    throw new TypeError('startService options: closeStore must be a boolean');
  }
  if (options.offers !== undefined && !Array.isArray(options.offers)) {
    throw new TypeError('startService options: offers must be an array');
  }
  const confirmDue = resolveConfirmDue(options.confirmDue);
  // Before any offer is stored: past this, listening fails only for the address itself.
  resolveServeOptions(options.server ?? {});
  return {
    partners: checkPartners(options.partners, 'startService options: partners'),
    confirmDue,
  };
}

/**
 * Starts the whole partner service (docs/http.md, "The service's lifecycle"): an engine over the
 * store, the HTTP app on Node's HTTP server, the webhook dispatcher of the partners with a
 * `webhook_url`, and a timer that confirms due payments (`engine.confirmDue()` once it listens,
 * then every minute by default); loads the offers given. The handle reloads partners and offers, and stops in
 * the order that loses nothing.
 * @param options - the store, partners, token secret, and the options of each part
 * @returns the running service, once it listens
 * @throws TypeError for an unknown or bad option or partner; OfferValidationError for a bad
 *   offer; the listen error (such as `EADDRINUSE`); a webhook URL refused. Nothing is left
 *   running when it throws, and the store is not closed.
 * @example
 * ```ts
 * const service = await startService({
 *   store: createMemoryStore(),
 *   partners: [{ application_id: 'bank-a', application_key_hash: await hashApplicationKey(key) }],
 *   tokenSecret: process.env.CASHBACK_TOKEN_SECRET!,
 *   server: { port: 8080 },
 * });
 * process.on('SIGHUP', () => void service.reload({ partners: readPartners() }));
 * process.on('SIGTERM', () => void service.stop());
 * ```
 * @public
 */
export async function startService(options: ServiceOptions): Promise<Service> {
  const checked = checkOptions(options);
  const { partners } = checked;
  const { store } = options;
  const registry = swappableRegistry(partners.registry);
  const inner = createEngine({ ...options.engine, store, partners: registry.registry });
  const gate = gateEngine(inner);
  const engine = gate.engine;
  const app = createHttpApp({
    ...options.app,
    engine,
    partners: registry.registry,
    tokenSecret: options.tokenSecret,
  });
  if (options.offers !== undefined) {
    compileOffers(options.offers, {
      operators: engine.options.operators,
      scale: engine.options.scale,
    });
  }
  const startDispatcher = (webhooks: CheckedPartners['webhooks']) =>
    startWebhookDispatcher({ ...options.webhooks, store, partners: webhooks });
  let dispatcher: WebhookDispatcher | undefined = await startDispatcher(partners.webhooks);
  let server: Awaited<ReturnType<typeof serveHttp>>;
  try {
    if (options.offers !== undefined) await engine.upsertOffers(options.offers);
    server = await serveHttp(app, options.server ?? {});
  } catch (err) {
    await dispatcher?.stop();
    throw err;
  }
  // On the engine itself, not the gated one: stop() waits for its call before the gate closes.
  const confirmer: ConfirmTimer = startConfirmTimer(inner, checked.confirmDue);

  let reloading: Promise<unknown> = Promise.resolve();
  let stopping: Promise<void> | undefined;
  const apply = async (changes: ServiceChanges): Promise<ServiceReloaded> => {
    const next = checkChanges(changes, engine);
    if (next !== undefined) {
      // The dispatcher checks the webhook settings before the registry changes.
      if (dispatcher === undefined) dispatcher = await startDispatcher(next.webhooks);
      else dispatcher.setPartners(next.webhooks);
      registry.swap(next.registry);
    }
    const offers =
      changes.offers === undefined ? undefined : await engine.upsertOffers(changes.offers);
    return {
      ...(next === undefined ? {} : { partners: next.ids }),
      ...(offers === undefined ? {} : { offers }),
    };
  };
  const stopInOrder = async (closed: Promise<void>, confirmed: Promise<void>): Promise<void> => {
    try {
      await closed;
      await confirmed;
      await reloading;
      await gate.close();
      await dispatcher?.stop();
    } finally {
      if (options.closeStore !== false) await store.close?.();
    }
  };
  return {
    url: server.url,
    port: server.port,
    engine,
    reload(changes) {
      if (stopping !== undefined) {
        return Promise.reject(new Error('The service is stopping: nothing was reloaded'));
      }
      const run = reloading.then(() => apply(changes));
      reloading = run.catch(() => undefined);
      return run;
    },
    stop() {
      // server.close() closes the listening socket, and confirmer.stop() clears the timer,
      // before each returns.
      stopping ??= stopInOrder(server.close(), confirmer.stop());
      return stopping;
    },
  };
}

/**
 * Checks a reload's changes before any is applied: the offers compile, the partners are a good
 * list. The dispatcher checks the webhook settings when it is given them, before the registry
 * changes.
 * @returns the partners given, checked, or undefined when none are given
 */
function checkChanges(
  changes: ServiceChanges,
  engine: CashbackEngine,
): CheckedPartners | undefined {
  if (changes === null || typeof changes !== 'object') {
    throw new TypeError('reload: changes must be an object with partners, offers or both');
  }
  assertKnownKeys(changes, ['partners', 'offers'], 'reload changes');
  if (changes.offers !== undefined) {
    if (!Array.isArray(changes.offers)) {
      throw new TypeError('reload changes: offers must be an array');
    }
    compileOffers(changes.offers, {
      operators: engine.options.operators,
      scale: engine.options.scale,
    });
  }
  return changes.partners === undefined
    ? undefined
    : checkPartners(changes.partners, 'reload changes: partners');
}
