import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import { type CashbackEngine, createEngine } from '../engine/createEngine.js';
import {
  createMemoryPartners,
  type PartnerRegistry,
  type PartnerSettings,
} from '../engine/partners.js';
import { createHttpApp, hashApplicationKey, type RunningServer, serveHttp } from '../http/index.js';
import { OfferValidationError } from '../matching/compileOffers.js';
import {
  startWebhookDispatcher,
  type WebhookDispatcher,
  type WebhookPartner,
} from '../webhooks/index.js';
import { type PartnerFileEntry, parsePartnersFile, readJsonFile, UsageError } from './inputs.js';
import { clientAddressBehind, type ServeLimits, type TrustedProxies } from './serveLimits.js';
import { describeChoice, type OpenedStore, openStore, type StoreChoice } from './storeChoice.js';
import { gateEngine } from './storeGate.js';
import { resolveTokenSecret, TOKEN_SECRET_ENV, type TokenSecret } from './tokenSecret.js';
import { walkthrough } from './walkthrough.js';

/** Application id of the partner made when no partners file is given. */
const DEMO_PARTNER = 'demo-bank';

/** Log levels of `--log-level` (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The options of `cashback serve`, parsed. */
export interface ServeCommandOptions {
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  /** Address to listen on. */
  readonly host: string;
  /** Offers file loaded at start and on SIGHUP. */
  readonly offers?: string;
  /** Partners file; without one a demo partner is made. */
  readonly partners?: string;
  /** The store: PGlite in the data directory, a PostgreSQL server, or memory. */
  readonly store: StoreChoice;
  /** Where the generated token secret (and, by default, the PGlite database) is kept. */
  readonly dataDir: string;
  /** IANA time zone of transaction dates and payment days. */
  readonly timeZone: string;
  /** Token lifetime in seconds. */
  readonly tokenTtl: number;
  /** Level of the JSON logs on stderr. */
  readonly logLevel: LogLevel;
  /** Allows http and loopback webhook URLs (`--allow-local-webhooks`), for development. */
  readonly allowLocalWebhooks?: boolean;
  /** The app's and the server's limits (`--limit`), checked. */
  readonly limits?: ServeLimits;
  /** Proxies whose `X-Forwarded-For` names the client (`--trust-proxy`). */
  readonly trustProxy?: TrustedProxies;
}

/** A failure once the inputs were accepted, such as a port in use: the command exits with 1. */
export class StartError extends Error {
  /** @param message - what failed */
  constructor(message: string) {
    super(message);
    this.name = 'StartError';
  }
}

/** Partners to serve and, for the demo partner, its key (nothing else's key is kept). */
interface Partners {
  readonly registry: PartnerRegistry;
  readonly ids: readonly string[];
  /** What the webhook dispatcher needs: each partner's `webhook_url` and `webhook_secret`. */
  readonly webhooks: readonly WebhookPartner[];
  readonly demoKey?: string;
}

/** A registry whose partners a SIGHUP replaces. */
function swappableRegistry(first: PartnerRegistry): {
  readonly registry: PartnerRegistry;
  swap(next: PartnerRegistry): void;
} {
  let current = first;
  return {
    registry: { list: () => current.list(), get: (id) => current.get(id) },
    swap: (next) => {
      current = next;
    },
  };
}

/** The webhook settings of the partners of a partners file, as the dispatcher takes them. */
function webhookPartners(entries: readonly PartnerFileEntry[]): WebhookPartner[] {
  return entries.map(({ application_id, webhook_url, webhook_secret }) => ({
    application_id,
    ...(webhook_url === undefined ? {} : { webhook_url }),
    ...(webhook_secret === undefined ? {} : { webhook_secret }),
  }));
}

/** The partners of the partners file with their keys hashed, or the demo partner. */
async function loadPartners(path: string | undefined): Promise<Partners> {
  if (path === undefined) {
    const demoKey = randomBytes(24).toString('base64url');
    const demo = {
      application_id: DEMO_PARTNER,
      application_key_hash: await hashApplicationKey(demoKey),
    };
    return {
      registry: createMemoryPartners([demo]),
      ids: [DEMO_PARTNER],
      webhooks: [{ application_id: DEMO_PARTNER }],
      demoKey,
    };
  }
  const entries = parsePartnersFile(readJsonFile(path, 'partners'), path);
  // The registry tells the engine which partners get `offer.updated` events (those with a
  // webhook_url); the secrets go to the dispatcher only.
  const settings = await Promise.all(
    entries.map(
      async ({ application_id, application_key, webhook_url }): Promise<PartnerSettings> => ({
        application_id,
        application_key_hash: await hashApplicationKey(application_key),
        ...(webhook_url === undefined ? {} : { webhook_url }),
      }),
    ),
  );
  return {
    registry: createMemoryPartners(settings),
    ids: entries.map((e) => e.application_id),
    webhooks: webhookPartners(entries),
  };
}

/**
 * Starts the webhook dispatcher of the partners (docs/webhooks.md), one log line per attempt.
 * @returns the dispatcher, or undefined when no partner has a webhook
 * @throws UsageError naming the partner whose webhook URL or secret is refused
 */
async function startDispatcher(
  store: OpenedStore['store'],
  partners: Partners,
  file: string | undefined,
  allowLocalUrls: boolean,
  logger: Logger,
): Promise<WebhookDispatcher | undefined> {
  try {
    return await startWebhookDispatcher({
      store,
      partners: partners.webhooks,
      allowLocalUrls,
      log: (line) => logger.info(line),
    });
  } catch (err) {
    // The library names its option; the command line, its flag.
    const message = (err as Error).message.replaceAll('allowLocalUrls', '--allow-local-webhooks');
    const hint =
      !allowLocalUrls && message.includes(' resolves to ')
        ? ' (only with --allow-local-webhooks, for development)'
        : '';
    throw new UsageError(`partners file ${file}: ${message}${hint}`);
  }
}

/** What loading an offers file did. */
interface OffersLoaded {
  readonly offers: number;
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
}

/**
 * Upserts the offers of a file: all or nothing, and offers no longer in the file are kept.
 * @throws UsageError when the file is unreadable, not a JSON array, or holds an invalid offer
 */
async function loadOffers(engine: CashbackEngine, path: string): Promise<OffersLoaded> {
  const offers = readJsonFile(path, 'offers');
  if (!Array.isArray(offers)) {
    throw new UsageError(`the offers file ${path} must hold a JSON array of offers`);
  }
  try {
    const r = await engine.upsertOffers(offers);
    return {
      offers: offers.length,
      created: r.created.length,
      updated: r.updated.length,
      unchanged: r.unchanged.length,
    };
  } catch (err) {
    if (err instanceof OfferValidationError) {
      throw new UsageError(`offers file ${path}: ${err.message}`);
    }
    throw err;
  }
}

/** Opens the store, a failure to do so as a {@link StartError} (exit 1) naming the store. */
async function openChosenStore(choice: StoreChoice, logger: Logger): Promise<OpenedStore> {
  try {
    return await openStore(choice, ({ records, maxRecords }) =>
      logger.warn(
        { records, maxRecords },
        'memory store near its bound: writes are refused (503 storage_full) once it holds maxRecords records; restart with a larger --memory-max-records, or use a durable store',
      ),
    );
  } catch (err) {
    throw new StartError(
      `cannot open the store (${describeChoice(choice)}): ${(err as Error).message}`,
    );
  }
}

function secretLine(secret: TokenSecret): string {
  if (secret.source === 'env') return `from ${TOKEN_SECRET_ENV}`;
  return `${secret.path} (${secret.source === 'created' ? 'made now' : 'kept from an earlier start'})`;
}

/** Every partner's number of stored payments, as `id=n` words. */
async function paymentCounts(engine: CashbackEngine, ids: readonly string[]): Promise<string[]> {
  return Promise.all(
    ids.map(async (id) => {
      const page = await engine.listPayments(id, {
        date_from: '0000-01-01',
        date_to: '9999-12-31',
        page_size: 1,
      });
      return `${id}=${page.total_count}`;
    }),
  );
}

/** Writes to stdout; resolves once the text is handed to the system. */
function print(text: string): Promise<void> {
  return new Promise((done) => process.stdout.write(text, () => done()));
}

/**
 * Runs `cashback serve`: checks every input, opens the store (PGlite in the data directory, a
 * PostgreSQL server or memory), loads the offers and partners, starts the partner API, prints
 * where it listens (and, for the demo partner, its credentials and a curl walk-through), runs the
 * webhook dispatcher of the partners that have a `webhook_url` (docs/webhooks.md), then serves
 * until SIGINT or SIGTERM. SIGHUP reloads the partners file, then the offers file. On the first
 * SIGINT or SIGTERM the server stops accepting connections, lets requests in flight finish, waits
 * for the engine calls still running (each commits or rolls back whole), stops the dispatcher,
 * prints the number of payments stored per partner, closes the store and exits 0; a second signal
 * exits at once (130 for SIGINT, 143 for SIGTERM).
 * @param options - the parsed command-line options
 * @param env - the environment (for {@link TOKEN_SECRET_ENV})
 * @returns once the server listens
 * @throws UsageError for a bad input, a partner's webhook URL or secret included (exit 2);
 *   StartError when the store cannot be opened or the server cannot listen (exit 1)
 */
export async function serve(
  options: ServeCommandOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const dataDir = resolve(options.dataDir);
  const tokenSecret = resolveTokenSecret(env[TOKEN_SECRET_ENV], dataDir);
  const partners = await loadPartners(options.partners);
  const logger: Logger = pino(
    { name: 'cashback', level: options.logLevel },
    pino.destination({ dest: 2, sync: true }),
  );
  if (tokenSecret.warning !== undefined) logger.warn(tokenSecret.warning);

  // --- The store and the engine. Every engine call goes through the gate, so that shutdown can
  // wait for the calls in flight before it closes the store.
  const opened = await openChosenStore(options.store, logger);
  const { store } = opened;
  const registry = swappableRegistry(partners.registry);
  let partnerIds = partners.ids;
  const ungated = createEngine({ store, partners: registry.registry, timeZone: options.timeZone });
  const gate = gateEngine(ungated);
  const engine = gate.engine;
  const allowLocalUrls = options.allowLocalWebhooks === true;
  let loaded: OffersLoaded | undefined;
  // The dispatcher delivers the outbox of this store to the partners' webhooks; it runs from
  // here to the shutdown, where it stops before the store closes.
  let dispatcher: WebhookDispatcher | undefined;
  try {
    dispatcher = await startDispatcher(store, partners, options.partners, allowLocalUrls, logger);
    loaded = options.offers === undefined ? undefined : await loadOffers(engine, options.offers);
  } catch (err) {
    await dispatcher?.stop();
    await store.close?.();
    throw err;
  }
  logger.info({ store: opened.description }, 'store open');

  const app = createHttpApp({
    engine,
    partners: partners.registry,
    tokenSecret: tokenSecret.secret,
    tokenTtl: options.tokenTtl,
    logger,
    limits: options.limits?.app ?? {},
    ...(options.trustProxy === undefined
      ? {}
      : { clientAddress: clientAddressBehind(options.trustProxy) }),
  });

  let stopping = false;
  let server: RunningServer;
  try {
    server = await serveHttp(app, {
      ...options.limits?.server,
      port: options.port,
      host: options.host,
    });
  } catch (err) {
    await dispatcher?.stop();
    await store.close?.();
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? `the port is in use; choose another --port (0 picks a free one), or see what holds it with: ss -ltnp 'sport = :${options.port}'`
        : (err as Error).message;
    throw new StartError(`cannot listen on ${options.host}:${options.port}: ${why}`);
  }
  logger.info(
    { url: server.url, partners: partners.ids, offers: loaded?.offers ?? 0 },
    'listening',
  );

  // Reloads run one after another; shutdown waits for the last one.
  let reloading: Promise<void> = Promise.resolve();
  const reloadPartners = async (path: string): Promise<void> => {
    try {
      const next = await loadPartners(path);
      if (dispatcher === undefined) {
        dispatcher = await startDispatcher(store, next, path, allowLocalUrls, logger);
      } else {
        try {
          dispatcher.setPartners(next.webhooks);
        } catch (err) {
          throw new UsageError(`partners file ${path}: ${(err as Error).message}`);
        }
      }
      registry.swap(next.registry);
      partnerIds = next.ids;
      logger.info({ file: path, partners: next.ids }, 'partners loaded again');
    } catch (err) {
      logger.error(
        { file: path, err: (err as Error).message },
        'partners not loaded again; the partners loaded before stay',
      );
    }
  };
  const reload = async (): Promise<void> => {
    // The partners first: offers changed in the same SIGHUP are then announced to the partners
    // of the new file.
    if (options.partners !== undefined) await reloadPartners(options.partners);
    if (options.offers === undefined) {
      if (options.partners === undefined) {
        logger.warn('SIGHUP: there is no --offers or --partners file to load again');
      }
      return;
    }
    try {
      const r = await loadOffers(engine, options.offers);
      logger.info({ file: options.offers, ...r }, 'offers loaded again');
    } catch (err) {
      logger.error(
        { file: options.offers, err: (err as Error).message },
        'offers not loaded again; the offers loaded before stay',
      );
    }
  };

  // --- Shutdown, in order: stop accepting and finish the requests in flight (serveHttp cuts
  // what remains after 10 s), wait for the engine calls still running (a cut request's call runs
  // on and commits or rolls back whole), stop the webhook dispatcher (its attempts in flight
  // finish and are recorded; what is not delivered stays in the outbox for the next start), then
  // close the store (PGlite leaves its data directory consistent).
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    const closed = server.close(); // the listening socket is closed at once
    logger.info({ signal }, 'stopping: requests in flight finish first');
    await closed;
    await reloading;
    const running = gate.inFlight();
    if (running > 0) logger.info({ calls: running }, 'waiting for engine calls in flight');
    await gate.close();
    await dispatcher?.stop();
    const counts = await paymentCounts(ungated, partnerIds);
    await store.close?.();
    logger.info({ signal }, 'stopped');
    await print(
      `cashback serve: stopped; payments stored: ${counts.join(', ')} (${opened.afterExit})\n`,
    );
    process.exit(0);
  };

  process.on('SIGHUP', () => {
    if (!stopping) reloading = reloading.then(reload);
  });
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.on(signal, () => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        process.exit(code);
      }
      stopping = true;
      shutdown(signal).catch((err: unknown) => {
        logger.fatal({ err: (err as Error).message }, 'shutdown failed');
        process.exit(1);
      });
    });
  }

  const pid = process.pid;
  const lines = [
    `cashback serve: the partner API listens on ${server.url} (pid ${pid})`,
    `  store         ${opened.description}`,
    loaded === undefined
      ? '  offers        none (start with --offers <file> to load some)'
      : `  offers        ${loaded.offers} from ${options.offers}; kill -HUP ${pid} loads the file again`,
    partners.demoKey === undefined
      ? `  partners      ${partners.ids.join(', ')} (keys from ${options.partners})`
      : `  partners      ${DEMO_PARTNER}, a demo partner with a new key at every start`,
    dispatcher === undefined
      ? '  webhooks      none (no partner has a webhook_url)'
      : `  webhooks      delivered to ${partners.webhooks
          .filter((p) => p.webhook_url !== undefined)
          .map((p) => p.application_id)
          .join(', ')}; one log line per attempt`,
    `  token secret  ${secretLine(tokenSecret)}`,
    `  logs          JSON lines on stderr (--log-level ${options.logLevel})`,
    `  stop          Ctrl-C or kill -TERM ${pid}: requests in flight finish first`,
  ];
  if (partners.demoKey !== undefined) {
    lines.push(
      '',
      `Demo partner: application id ${DEMO_PARTNER}, application key ${partners.demoKey}`,
      '',
      walkthrough({
        url: server.url,
        applicationId: DEMO_PARTNER,
        applicationKey: partners.demoKey,
        tokenTtl: options.tokenTtl,
      }),
    );
  }
  await print(`${lines.join('\n')}\n`);
}
