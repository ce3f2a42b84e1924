import { Command, CommanderError } from 'commander';
import { version } from '../../package.json';
import { addBacktestCommand } from './backtest.js';
import { registerCheck } from './check.js';
import { addExplainCommand } from './explain.js';
import { registerFuzz } from './fuzz.js';
import { UsageError } from './inputs.js';
import { addMigrateCommand } from './migrate.js';
import { addReplayCommand } from './replay.js';
import { StartError } from './serve.js';
import { addServeCommand } from './serveCommand.js';
import { addWebhooksCommand } from './webhooks.js';

/** Exit code of a bad command line, environment or input file. */
const EXIT_USAGE = 2;

/** Exit code of a failure after the inputs were accepted (a port in use, …). */
const EXIT_FAILURE = 1;

/**
 * The `cashback` command line: one module registers each command and its options. Usage errors
 * are thrown as commander's errors (see {@link run}) instead of ending the process.
 * @returns the commander program
 */
function createProgram(): Command {
  const program = new Command('cashback')
    .description('cashback-engine from the command line')
    .version(version)
    .exitOverride();
  addServeCommand(program);
  addMigrateCommand(program);
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
