import { Command, CommanderError, Option } from 'commander';
import { version } from '../../package.json';
import { parsePort, parseTimeZone, parseTokenTtl, UsageError } from './inputs.js';
import { LOG_LEVELS, type LogLevel, StartError, serve } from './serve.js';
import { TOKEN_SECRET_ENV } from './tokenSecret.js';
import { addWebhooksCommand } from './webhooks.js';

/** Exit code of a bad command line, environment or input file. */
export const EXIT_USAGE = 2;

/** Exit code of a failure after the inputs were accepted (a port in use, …). */
export const EXIT_FAILURE = 1;

/** The options object commander builds for `serve`. */
interface RawServeOptions {
  port: number;
  host: string;
  offers?: string;
  partners?: string;
  memory?: boolean;
  dataDir: string;
  timeZone: string;
  tokenTtl: number;
  logLevel: LogLevel;
}

/**
 * The `cashback` command line: `cashback serve` and its options. Usage errors are thrown as
 * commander's errors (see {@link run}) instead of ending the process.
 * @returns the commander program
 */
export function createProgram(): Command {
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
      new Option(
        '--memory',
        'keep everything in memory: the default and, for now, the only store (all data is ' +
          'lost when the process exits)',
      ),
    )
    .addOption(
      new Option(
        '--data-dir <dir>',
        `where the generated token secret is kept (unless ${TOKEN_SECRET_ENV} is set)`,
      )
        .env('CASHBACK_DATA_DIR')
        .default('.cashback'),
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
      new Option('--log-level <level>', 'level of the JSON logs on stderr')
        .choices(LOG_LEVELS)
        .default('info'),
    )
    .addHelpText(
      'after',
      `
Environment:
  ${TOKEN_SECRET_ENV}  secret that signs tokens (at least 32 bytes); without it a secret is
                         generated once and kept in <data-dir>/token-secret (mode 0600)
  CASHBACK_DATA_DIR      default of --data-dir

Signals: SIGHUP loads the --offers file again; SIGINT or SIGTERM stops accepting connections,
lets requests in flight finish, prints the payments stored per partner and exits 0 (a second
signal exits at once). Exit codes: 0 stopped, 1 failed to start, 2 bad input. See docs/cli.md.`,
    )
    .action(async (raw: RawServeOptions) => {
      if (raw.dataDir === '') throw new UsageError('--data-dir (or CASHBACK_DATA_DIR) is empty');
      await serve({
        port: raw.port,
        host: raw.host,
        ...(raw.offers === undefined ? {} : { offers: raw.offers }),
        ...(raw.partners === undefined ? {} : { partners: raw.partners }),
        memory: raw.memory === true,
        dataDir: raw.dataDir,
        timeZone: raw.timeZone,
        tokenTtl: raw.tokenTtl,
        logLevel: raw.logLevel,
      });
    });
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
