import { mkdirSync } from 'node:fs';
import type { Command } from 'commander';
import { migrate } from '../store/postgres/index.js';
import { MIGRATIONS } from '../store/postgres/migrations/index.js';
import { UsageError } from './inputs.js';
import { StartError } from './serve.js';
import {
  chooseStore,
  DATABASE_URL_ENV,
  describeChoice,
  lockDataDir,
  PGLITE_FOLDER,
  type StoreChoice,
} from './storeChoice.js';
import { databaseUrlOption, dataDirOption, urlSource } from './storeOptions.js';

/** The options object commander builds for `migrate`. */
interface RawMigrateOptions {
  databaseUrl?: string;
  dataDir: string;
}

/**
 * Runs `cashback migrate`: applies the schema migrations a database has not recorded yet (on a
 * PostgreSQL server, or PGlite in the data directory) and prints one line saying which.
 * @param choice - the database, a PostgreSQL server or PGlite (never memory)
 * @returns the versions applied now, ascending (empty when the schema was current)
 * @throws StartError when the database cannot be reached or a migration fails (exit 1)
 */
async function migrateCommand(choice: StoreChoice): Promise<number[]> {
  if (choice.kind === 'memory') throw new Error('the memory store has no schema to migrate');
  const where = describeChoice(choice);
  let applied: number[];
  let unlock: (() => void) | undefined;
  try {
    if (choice.kind === 'pglite') {
      mkdirSync(choice.dataDir, { recursive: true, mode: 0o700 });
      unlock = lockDataDir(choice.dataDir);
    }
    applied = await migrate(
      choice.kind === 'postgres' ? { connectionString: choice.url } : { dataDir: choice.dataDir },
    );
  } catch (err) {
    throw new StartError(`cannot migrate ${where}: ${(err as Error).message}`);
  } finally {
    unlock?.();
  }
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  const name = (v: number) => {
    const m = MIGRATIONS.find((x) => x.version === v);
    return `${String(v).padStart(4, '0')}_${m?.name ?? '?'}`;
  };
  const line =
    applied.length === 0
      ? `cashback migrate: nothing to apply; ${where} is at schema version ${latest}\n`
      : `cashback migrate: applied ${applied.map(name).join(', ')} to ${where}; schema version ${latest}\n`;
  await new Promise<void>((done) => process.stdout.write(line, () => done()));
  return applied;
}

/**
 * Adds `cashback migrate` to the program.
 * @param program - the `cashback` program
 */
export function addMigrateCommand(program: Command): void {
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
}
