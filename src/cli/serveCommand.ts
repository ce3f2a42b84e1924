import { type Command, Option } from 'commander';
import type { LateReturns } from '../model/options.js';
import { parsePort, parseTimeZone, parseTokenTtl, UsageError } from './inputs.js';
import { LOG_LEVELS, type LogLevel, serve } from './serve.js';
import {
  checkServeLimits,
  parseLimit,
  parseTrustProxy,
  type TrustedProxies,
} from './serveLimits.js';
import { chooseStore, DATABASE_URL_ENV, PGLITE_FOLDER, parseMaxRecords } from './storeChoice.js';
import { databaseUrlOption, dataDirOption, urlSource } from './storeOptions.js';
import { TOKEN_SECRET_ENV } from './tokenSecret.js';

/** The values of `--late-returns`, the engine's `lateReturns`. */
const LATE_RETURNS = ['clawback', 'ignore'] as const satisfies readonly LateReturns[];

/** The options object commander builds for `serve`. */
interface RawServeOptions {
  port: number;
  host: string;
  offers?: string;
  partners?: string;
  memory?: boolean;
  memoryMaxRecords?: number;
  databaseUrl?: string;
  dataDir: string;
  timeZone: string;
  lateReturns: LateReturns;
  tokenTtl: number;
  logLevel: LogLevel;
  allowLocalWebhooks?: boolean;
  limit?: Record<string, number>;
  trustProxy?: TrustedProxies;
}

/** What `cashback serve --help` prints after the options. */
const SERVE_HELP = `
Store: PGlite in <data-dir>/${PGLITE_FOLDER} unless --database-url (or ${DATABASE_URL_ENV}) or --memory is given.

Environment:
  ${TOKEN_SECRET_ENV}  secret that signs tokens (at least 32 bytes); without it a secret is
                         generated once and kept in <data-dir>/token-secret (mode 0600)
  CASHBACK_DATA_DIR      default of --data-dir
  ${DATABASE_URL_ENV}           default of --database-url

Webhooks: the partners with a webhook_url get their events (cashback.created, cashback.adjusted,
cashback.confirmed, cashback.clawed_back, offer.updated), signed per Standard Webhooks and
retried; see docs/webhooks.md and cashback webhooks --help.

Confirmation: due payments are confirmed (cashback.confirmed) at start and every minute; a
failure is logged and tried again a minute later.

Signals: SIGHUP loads the --partners and --offers files again; SIGINT or SIGTERM stops accepting connections,
lets requests in flight finish, waits for the engine calls still running, prints the payments
stored per partner, closes the store and exits 0 (a second signal exits at once).
Exit codes: 0 stopped, 1 failed to start, 2 bad input. See docs/cli.md.`;

/**
 * The options of `cashback serve`, in the order `--help` lists them.
 * @returns one commander option per flag
 */
function serveOptions(): Option[] {
  return [
    new Option('--port <port>', 'TCP port; 0 picks a free one (the address is printed)')
      .argParser(parsePort)
      .default(8080),
    new Option('--host <host>', 'address to listen on').default('127.0.0.1'),
    new Option(
      '--offers <file>',
      'JSON array of offers, loaded at start and again on SIGHUP (upsert: offers removed ' +
        'from the file stay)',
    ),
    new Option(
      '--partners <file>',
      'JSON array of { application_id, application_key, webhook_url?, webhook_secret? }; ' +
        'without it a demo partner is made',
    ),
    dataDirOption(
      `where the data is kept: the PGlite database in <dir>/${PGLITE_FOLDER} (the default ` +
        `store) and the generated token secret (unless ${TOKEN_SECRET_ENV} is set)`,
    ),
    databaseUrlOption(
      'store in this PostgreSQL server instead (postgres://user:password@host:5432/db); ' +
        'the schema is migrated at start',
    ),
    new Option(
      '--memory',
      'store in memory instead: all data is lost when the process exits (wins over ' +
        `${DATABASE_URL_ENV} from the environment)`,
    ),
    new Option(
      '--memory-max-records <n>',
      'with --memory: the most records held (offers, customers, transactions, payments, ' +
        'events); writes past it are refused with 503, and a warning is logged at 80% ' +
        '(default: the heap limit / 1 KiB)',
    ).argParser(parseMaxRecords),
    new Option('--time-zone <zone>', 'IANA time zone of transaction dates and payment days')
      .argParser(parseTimeZone)
      .default('UTC'),
    new Option(
      '--late-returns <mode>',
      'what a return does that arrives once its payment is confirmed (its payment day has ' +
        'begun): clawback records what it takes back and leaves the payment as it is; ignore ' +
        'answers it late_return and takes nothing',
    )
      .choices(LATE_RETURNS)
      .default('clawback'),
    new Option('--token-ttl <seconds>', 'token lifetime').argParser(parseTokenTtl).default(3600),
    new Option(
      '--allow-local-webhooks',
      'allow http webhook URLs and hosts resolving to loopback or private addresses ' +
        '(development and tests); without it webhook URLs must be https and public',
    ),
    new Option(
      '--limit <name=value>',
      'set a limit of the API, repeatable: bodyBytes, batchItems, nestingDepth, ' +
        'tokenRequestsPerAddress, tokenWindowSeconds, tokenFailuresPerAddress, ' +
        'tokenFailuresPerApplicationAndAddress, tokenFailureWindowSeconds, keyChecksInFlight, ' +
        'maxConnectionsPerAddress, headersTimeoutMs, requestTimeoutMs, shutdownTimeoutMs ' +
        '(docs/cli.md)',
    ).argParser(parseLimit),
    new Option(
      '--trust-proxy <addresses>',
      'proxies in front of the server whose X-Forwarded-For names the client, for the ' +
        'per-address limits: addresses, CIDR ranges, loopback, linklocal, uniquelocal, ' +
        'separated by commas',
    ).argParser(parseTrustProxy),
    new Option('--log-level <level>', 'level of the JSON logs on stderr')
      .choices(LOG_LEVELS)
      .default('info'),
  ];
}

/**
 * Runs `cashback serve` with the options commander parsed.
 * @param raw - the parsed options
 * @param command - the serve command, which knows where `--database-url` came from
 */
async function serveAction(raw: RawServeOptions, command: Command): Promise<void> {
  if (raw.dataDir === '') throw new UsageError('--data-dir (or CASHBACK_DATA_DIR) is empty');
  const limits = checkServeLimits(raw.limit ?? {});
  const store = chooseStore({
    ...raw,
    ...(urlSource(command) === undefined ? {} : { databaseUrlSource: urlSource(command) }),
  });
  await serve({
    port: raw.port,
    host: raw.host,
    ...(raw.offers === undefined ? {} : { offers: raw.offers }),
    ...(raw.partners === undefined ? {} : { partners: raw.partners }),
    store,
    dataDir: raw.dataDir,
    timeZone: raw.timeZone,
    lateReturns: raw.lateReturns,
    tokenTtl: raw.tokenTtl,
    logLevel: raw.logLevel,
    ...(raw.allowLocalWebhooks === true ? { allowLocalWebhooks: true } : {}),
    limits,
    ...(raw.trustProxy === undefined ? {} : { trustProxy: raw.trustProxy }),
  });
}

/**
 * Adds `cashback serve`, the partner HTTP API on Node, to the program.
 * @param program - the `cashback` program
 */
export function addServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description(
      'Run the partner HTTP API (the cashback service interface) on Node. Without --partners it ' +
        'makes a demo partner and prints its credentials and a curl walk-through of every endpoint.',
    );
  for (const option of serveOptions()) command.addOption(option);
  command.addHelpText('after', SERVE_HELP).action(serveAction);
}
