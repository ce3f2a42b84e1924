import { resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import { type CashbackEngine, createEngine } from '../engine/createEngine.js';
import { type Service, startService } from '../http/index.js';
import { OfferValidationError } from '../matching/compileOffers.js';
import type { LateReturns } from '../model/options.js';
import { readJsonFile, UsageError } from './inputs.js';
import { clientAddressBehind, type ServeLimits, type TrustedProxies } from './serveLimits.js';
import { DEMO_PARTNER, loadPartners, type ServedPartners } from './servePartners.js';
import { describeChoice, type OpenedStore, openStore, type StoreChoice } from './storeChoice.js';
import { resolveTokenSecret, TOKEN_SECRET_ENV, type TokenSecret } from './tokenSecret.js';
import { walkthrough } from './walkthrough.js';

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
  /** What a return that arrives once its payment is confirmed does (`--late-returns`). */
  readonly lateReturns: LateReturns;
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

/**
 * Reads an offers file.
 * @throws UsageError when the file is unreadable or not a JSON array
 */
function readOffers(path: string): unknown[] {
  const offers = readJsonFile(path, 'offers');
  if (!Array.isArray(offers)) {
    throw new UsageError(`the offers file ${path} must hold a JSON array of offers`);
  }
  return offers;
}

/**
 * A refusal of the library as the command line says it: a bad offer names the offers file; a bad
 * partner or webhook names the partners file (a partner by its position, the flag by its name).
 * @returns the UsageError, or undefined when `err` is not a refusal of an input
 */
function asUsageError(
  err: unknown,
  options: Pick<ServeCommandOptions, 'offers' | 'partners' | 'allowLocalWebhooks'>,
): UsageError | undefined {
  if (err instanceof UsageError) return err;
  if (err instanceof OfferValidationError) {
    return new UsageError(`offers file ${options.offers}: ${err.message}`);
  }
  // The partners' refusals: a bad partner or webhook setting (TypeError), or a webhook host that
  // resolves to a private address or not at all (an Error naming the partner).
  if (!(err instanceof TypeError || (err instanceof Error && err.message.startsWith('partner ')))) {
    return undefined;
  }
  const message = err.message
    .replace(/^(startService options|reload changes): partners\[(\d+)\]\.?/, (_m, _w, n) => {
      return `partner #${Number(n) + 1}: `;
    })
    .replaceAll('allowLocalUrls', '--allow-local-webhooks');
  const hint =
    options.allowLocalWebhooks !== true && message.includes(' resolves to ')
      ? ' (only with --allow-local-webhooks, for development)'
      : '';
  return new UsageError(`partners file ${options.partners}: ${message}${hint}`);
}

/**
 * Starts the service over the opened store; on failure the store is closed.
 * @throws UsageError for a refused offer, partner or webhook; StartError when it cannot listen
 */
async function start(
  options: ServeCommandOptions,
  opened: OpenedStore,
  inputs: {
    readonly partners: ServedPartners;
    readonly offers: unknown[] | undefined;
    readonly tokenSecret: TokenSecret;
  },
  logger: Logger,
): Promise<Service> {
  try {
    return await startService({
      store: opened.store,
      partners: inputs.partners.partners,
      tokenSecret: inputs.tokenSecret.secret,
      ...(inputs.offers === undefined ? {} : { offers: inputs.offers }),
      engine: { timeZone: options.timeZone, lateReturns: options.lateReturns },
      app: {
        tokenTtl: options.tokenTtl,
        logger,
        limits: options.limits?.app ?? {},
        ...(options.trustProxy === undefined
          ? {}
          : { clientAddress: clientAddressBehind(options.trustProxy) }),
      },
      server: { ...options.limits?.server, port: options.port, host: options.host },
      webhooks: {
        allowLocalUrls: options.allowLocalWebhooks === true,
        log: (line) => logger.info(line),
      },
      confirmDue: {
        onConfirmed: ({ events, payments }) =>
          logger.info({ events, payments }, 'due payments confirmed (cashback.confirmed)'),
        onError: (err) =>
          logger.error(
            { err: err instanceof Error ? err.message : String(err) },
            'confirming due payments failed; trying again in a minute',
          ),
      },
      // The payments are counted after the stop, before the store closes.
      closeStore: false,
    });
  } catch (err) {
    await opened.store.close?.();
    const usage = asUsageError(err, options);
    if (usage !== undefined) throw usage;
    const { code, syscall, message } = err as NodeJS.ErrnoException;
    if (syscall !== 'listen') throw new StartError(`cannot start: ${message}`);
    const why =
      code === 'EADDRINUSE'
        ? `the port is in use; choose another --port (0 picks a free one), or see what holds it with: ss -ltnp 'sport = :${options.port}'`
        : message;
    throw new StartError(`cannot listen on ${options.host}:${options.port}: ${why}`);
  }
}

/**
 * What SIGHUP does: loads the partners file again, then the offers file, each given to the
 * service on its own, so that a bad one is logged and the other still applies.
 * @returns the reload, resolved once done (it never rejects)
 */
async function reloadFiles(
  service: Service,
  options: ServeCommandOptions,
  state: ServeState,
  logger: Logger,
): Promise<void> {
  if (options.partners === undefined && options.offers === undefined) {
    logger.warn('SIGHUP: there is no --offers or --partners file to load again');
    return;
  }
  if (options.partners !== undefined) {
    const file = options.partners;
    try {
      const next = await loadPartners(file, state.tokenSecret);
      await service.reload({ partners: next.partners });
      state.ids = next.ids;
      logger.info({ file, partners: next.ids }, 'partners loaded again');
    } catch (err) {
      logger.error(
        { file, err: (asUsageError(err, options) ?? (err as Error)).message },
        'partners not loaded again; the partners loaded before stay',
      );
    }
  }
  if (options.offers !== undefined) {
    const file = options.offers;
    try {
      const offers = readOffers(file);
      const r = (await service.reload({ offers })).offers;
      logger.info(
        {
          file,
          offers: offers.length,
          created: r?.created.length,
          updated: r?.updated.length,
          unchanged: r?.unchanged.length,
        },
        'offers loaded again',
      );
    } catch (err) {
      logger.error(
        { file, err: (asUsageError(err, options) ?? (err as Error)).message },
        'offers not loaded again; the offers loaded before stay',
      );
    }
  }
}

/** What reloads need (the secret the key hashes' salts come from) and change (the partners). */
interface ServeState {
  readonly tokenSecret: string;
  ids: readonly string[];
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

function secretLine(secret: TokenSecret): string {
  if (secret.source === 'env') return `from ${TOKEN_SECRET_ENV}`;
  return `${secret.path} (${secret.source === 'created' ? 'made now' : 'kept from an earlier start'})`;
}

/** What the command prints once it listens. */
function startMessage(
  options: ServeCommandOptions,
  service: Service,
  opened: OpenedStore,
  partners: ServedPartners,
  tokenSecret: TokenSecret,
  offers: number | undefined,
): string {
  const pid = process.pid;
  const lines = [
    `cashback serve: the partner API listens on ${service.url} (pid ${pid})`,
    `  store         ${opened.description}`,
    offers === undefined
      ? '  offers        none (start with --offers <file> to load some)'
      : `  offers        ${offers} from ${options.offers}; kill -HUP ${pid} loads the file again`,
    partners.demoKey === undefined
      ? `  partners      ${partners.ids.join(', ')} (keys from ${options.partners})`
      : `  partners      ${DEMO_PARTNER}, a demo partner with a new key at every start`,
    partners.withWebhooks.length === 0
      ? '  webhooks      none (no partner has a webhook_url)'
      : `  webhooks      delivered to ${partners.withWebhooks.join(', ')}; one log line per attempt`,
    `  payments      due ones confirmed at start and every minute (cashback.confirmed); late returns: ${options.lateReturns} (--late-returns)`,
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
        url: service.url,
        applicationId: DEMO_PARTNER,
        applicationKey: partners.demoKey,
        tokenTtl: options.tokenTtl,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Ties the signals to the service: SIGHUP reloads the files; the first SIGINT or SIGTERM stops
 * the service (docs/http.md, "The service's lifecycle"), then counts the payments stored per
 * partner, closes the store and exits 0; a second one exits at once (130 or 143).
 */
function onSignals(
  service: Service,
  options: ServeCommandOptions,
  opened: OpenedStore,
  state: ServeState,
  logger: Logger,
): void {
  let stopping = false;
  // Reloads run one after another, each file read when its turn comes.
  let reloading: Promise<void> = Promise.resolve();
  process.on('SIGHUP', () => {
    if (!stopping) reloading = reloading.then(() => reloadFiles(service, options, state, logger));
  });
  const shutdown = async (signal: NodeJS.Signals): Promise<void> => {
    const stopped = service.stop(); // the listening socket is closed at once
    logger.info({ signal }, 'stopping: requests in flight finish first');
    await stopped;
    await reloading;
    const counts = await paymentCounts(
      createEngine({ store: opened.store, timeZone: options.timeZone }),
      state.ids,
    );
    await opened.store.close?.();
    logger.info({ signal }, 'stopped');
    await print(
      `cashback serve: stopped; payments stored: ${counts.join(', ')} (${opened.afterExit})\n`,
    );
    process.exit(0);
  };
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
}

/**
 * Runs `cashback serve`: checks every input, opens the store (PGlite in the data directory, a
 * PostgreSQL server or memory), starts the service (`startService`: the partner API, the webhook
 * dispatcher of the partners that have a `webhook_url`, docs/webhooks.md) with the offers and
 * partners of the files, prints where it listens (and, for the demo partner, its credentials and
 * a curl walk-through), then serves until SIGINT or SIGTERM. SIGHUP reloads the partners file,
 * then the offers file. On the first SIGINT or SIGTERM the service stops gracefully (requests and
 * engine calls in flight finish, then the dispatcher stops), the command prints the number of
 * payments stored per partner, closes the store and exits 0; a second signal exits at once (130
 * for SIGINT, 143 for SIGTERM).
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
  const partners = await loadPartners(options.partners, tokenSecret.secret);
  const offers = options.offers === undefined ? undefined : readOffers(options.offers);
  const logger: Logger = pino(
    { name: 'cashback', level: options.logLevel },
    pino.destination({ dest: 2, sync: true }),
  );
  if (tokenSecret.warning !== undefined) logger.warn(tokenSecret.warning);

  const opened = await openChosenStore(options.store, logger);
  const service = await start(options, opened, { partners, offers, tokenSecret }, logger);
  logger.info({ store: opened.description }, 'store open');
  const count = offers?.length ?? 0;
  logger.info({ url: service.url, partners: partners.ids, offers: count }, 'listening');
  onSignals(
    service,
    options,
    opened,
    { tokenSecret: tokenSecret.secret, ids: partners.ids },
    logger,
  );
  await print(startMessage(options, service, opened, partners, tokenSecret, offers?.length));
}
