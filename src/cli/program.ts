import { Command, CommanderError, Option } from 'commander';
import { version } from '../../package.json';
import { addBacktestCommand } from './backtest.js';
import { registerCheck } from './check.js';
import { addExplainCommand } from './explain.js';
import { registerFuzz } from './fuzz.js';
import { parsePort, parseTimeZone, parseTokenTtl, UsageError } from './inputs.js';
import { migrateCommand } from './migrate.js';
import { addReplayCommand } from './replay.js';
import { LOG_LEVELS, type LogLevel, StartError, serve } from './serve.js';
import {
  checkServeLimits,
  parseLimit,
  parseTrustProxy,
  type TrustedProxies,
} from './serveLimits.js';
import { chooseStore, DATABASE_URL_ENV, PGLITE_FOLDER, parseMaxRecords } from './storeChoice.js';
import { TOKEN_SECRET_ENV } from './tokenSecret.js';
import { addWebhooksCommand } from './webhooks.js';

/** Exit code of a bad command line, environment or input file. */
const EXIT_USAGE = 2;

/** Exit code of a failure after the inputs were accepted (a port in use, …). */
const EXIT_FAILURE = 1;

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
  tokenTtl: number;
  logLevel: LogLevel;
  allowLocalWebhooks?: boolean;
  limit?: Record<string, number>;
  trustProxy?: TrustedProxies;
}

/** The options object commander builds for `migrate`. */
interface RawMigrateOptions {
  databaseUrl?: string;
  dataDir: string;
}

/** `--data-dir`, shared by `serve` and `migrate`. */
const dataDirOption = (what: string) =>
  new Option('--data-dir <dir>', what).env('CASHBACK_DATA_DIR').default('.cashback');

/** `--database-url`, shared by `serve` and `migrate`. */
const databaseUrlOption = (what: string) =>
  new Option('--database-url <url>', what).env(DATABASE_URL_ENV);

/** Where `--database-url` came from: `cli`, `env`, or undefined. */
const urlSource = (command: Command): string | undefined =>
  command.getOptionValueSource('databaseUrl');

/**
 * The `cashback` command line: `cashback serve`, `cashback migrate` and their options. Usage errors are thrown as
 * commander's errors (see {@link run}) instead of ending the process.
 * @returns the commander program
 */
function createProgram(): Command {
  const program = new Command('cashback')
    .description('cashback-engine from the command line')
    .version(version)
    .exitOverride();

  program
    .command('serve')
    .description(
      'Run the partner HTTP API (the cashback service interface) on Node. Without --partners it ' +
        'makes a demo partner and prints its credentials and a curl walk-through of every endpoint.',
    )
    .addOption(
      new Option('--port <port>', 'TCP port; 0 picks a free one (the address is printed)')
        .argParser(parsePort)
        .default(8080),
    )
    .addOption(new Option('--host <host>', 'address to listen on').default('127.0.0.1'))
    .addOption(
      new Option(
        '--offers <file>',
        'JSON array of offers, loaded at start and again on SIGHUP (upsert: offers removed ' +
          'from the file stay)',
      ),
    )
    .addOption(
      new Option(
        '--partners <file>',
        'JSON array of { application_id, application_key, webhook_url?, webhook_secret? }; ' +
          'without it a demo partner is made',
      ),
    )
    .addOption(
      dataDirOption(
        `where the data is kept: the PGlite database in <dir>/${PGLITE_FOLDER} (the default ` +
          `store) and the generated token secret (unless ${TOKEN_SECRET_ENV} is set)`,
      ),
    )
    .addOption(
      databaseUrlOption(
        'store in this PostgreSQL server instead (postgres://user:password@host:5432/db); ' +
          'the schema is migrated at start',
      ),
    )
    .addOption(
      new Option(
        '--memory',
        'store in memory instead: all data is lost when the process exits (wins over ' +
          `${DATABASE_URL_ENV} from the environment)`,
      ),
    )
    .addOption(
      new Option(
        '--memory-max-records <n>',
        'with --memory: the most records held (offers, customers, transactions, payments, ' +
          'events); writes past it are refused with 503, and a warning is logged at 80% ' +
          '(default: the heap limit / 1 KiB)',
      ).argParser(parseMaxRecords),
    )
    .addOption(
      new Option('--time-zone <zone>', 'IANA time zone of transaction dates and payment days')
        .argParser(parseTimeZone)
        .default('UTC'),
    )
    .addOption(
      new Option('--token-ttl <seconds>', 'token lifetime').argParser(parseTokenTtl).default(3600),
    )
    .addOption(
      new Option(
        '--allow-local-webhooks',
        'allow http webhook URLs and hosts resolving to loopback or private addresses ' +
          '(development and tests); without it webhook URLs must be https and public',
      ),
    )
    .addOption(
      new Option(
        '--limit <name=value>',
        'set a limit of the API, repeatable: bodyBytes, batchItems, nestingDepth, ' +
          'tokenRequestsPerAddress, tokenWindowSeconds, tokenFailuresPerAddress, ' +
          'tokenFailuresPerApplicationAndAddress, tokenFailureWindowSeconds, keyChecksInFlight, ' +
          'maxConnectionsPerAddress, headersTimeoutMs, requestTimeoutMs, shutdownTimeoutMs ' +
          '(docs/cli.md)',
      ).argParser(parseLimit),
    )
    .addOption(
      new Option(
        '--trust-proxy <addresses>',
        'proxies in front of the server whose X-Forwarded-For names the client, for the ' +
          'per-address limits: addresses, CIDR ranges, loopback, linklocal, uniquelocal, ' +
          'separated by commas',
      ).argParser(parseTrustProxy),
    )
    .addOption(
      new Option('--log-level <level>', 'level of the JSON logs on stderr')
        .choices(LOG_LEVELS)
        .default('info'),
    )
    .addHelpText(
      'after',
      `
Store: PGlite in <data-dir>/${PGLITE_FOLDER} unless --database-url (or ${DATABASE_URL_ENV}) or --memory is given.

Environment:
  ${TOKEN_SECRET_ENV}  secret that signs tokens (at least 32 bytes); without it a secret is
                         generated once and kept in <data-dir>/token-secret (mode 0600)
  CASHBACK_DATA_DIR      default of --data-dir
  ${DATABASE_URL_ENV}           default of --database-url

Webhooks: the partners with a webhook_url get their events (cashback.created, offer.updated),
signed per Standard Webhooks and retried; see docs/webhooks.md and cashback webhooks --help.

Signals: SIGHUP loads the --partners and --offers files again; SIGINT or SIGTERM stops accepting connections,
lets requests in flight finish, waits for the engine calls still running, prints the payments
stored per partner, closes the store and exits 0 (a second signal exits at once).
Exit codes: 0 stopped, 1 failed to start, 2 bad input. See docs/cli.md.`,
    )
    .action(async (raw: RawServeOptions, command: Command) => {
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
        tokenTtl: raw.tokenTtl,
        logLevel: raw.logLevel,
        ...(raw.allowLocalWebhooks === true ? { allowLocalWebhooks: true } : {}),
        limits,
        ...(raw.trustProxy === undefined ? {} : { trustProxy: raw.trustProxy }),
      });
    });

  program
    .command('migrate')
    .description(
      'Apply the schema migrations a database has not recorded yet, and print which. ' +
        '`cashback serve` migrates when it starts; this does it ahead of a deploy, or with ' +
        'other credentials.',
    )
    .addOption(databaseUrlOption('the PostgreSQL server to migrate'))
    .addOption(
      dataDirOption(
        `without --database-url: migrate the PGlite database in <dir>/${PGLITE_FOLDER}`,
      ),
    )
    .addHelpText(
      'after',
      `
Environment: ${DATABASE_URL_ENV} (default of --database-url), CASHBACK_DATA_DIR (of --data-dir).
Exit codes: 0 migrated (or nothing to apply), 1 the database failed, 2 bad input. See docs/cli.md.`,
    )
    .action(async (raw: RawMigrateOptions, command: Command) => {
      if (raw.dataDir === '') throw new UsageError('--data-dir (or CASHBACK_DATA_DIR) is empty');
      const source = urlSource(command);
      const dirGiven = command.getOptionValueSource('dataDir') === 'cli';
      if (source === 'cli' && dirGiven) {
        throw new UsageError('--database-url and --data-dir name two databases: give one of them');
      }
      // An explicit --data-dir wins over DATABASE_URL from the environment.
      const { databaseUrl, ...rest } = raw;
      await migrateCommand(
        chooseStore(
          dirGiven || databaseUrl === undefined
            ? rest
            : { ...rest, databaseUrl, databaseUrlSource: source ?? 'env' },
        ),
      );
    });

  registerCheck(program);
  registerFuzz(program);
  addReplayCommand(program);
  addExplainCommand(program);
  addBacktestCommand(program);
  addWebhooksCommand(program);
  return program;
}

/**
 * Runs the command line. Returns once the command has started (a server keeps the process
 * alive) or failed; failures set `process.exitCode`: 2 for a usage error (commander prints its
 * own, this prints `cashback: <message>` for the others), 1 for a start failure.
 * @param argv - `process.argv`
 */
export async function run(argv: readonly string[]): Promise<void> {
  try {
    await createProgram().parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version end with 0; commander has printed any error already.
      process.exitCode = err.exitCode === 0 ? 0 : EXIT_USAGE;
    } else if (err instanceof UsageError) {
      process.stderr.write(`cashback: ${err.message}\n`);
      process.exitCode = EXIT_USAGE;
    } else if (err instanceof StartError) {
      process.stderr.write(`cashback: ${err.message}\n`);
      process.exitCode = EXIT_FAILURE;
    } else {
      process.stderr.write(
        `cashback: ${err instanceof Error ? (err.stack ?? err.message) : err}\n`,
      );
      process.exitCode = EXIT_FAILURE;
    }
  }
}
