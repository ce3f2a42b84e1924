import { mkdirSync } from 'node:fs';
import { migrate } from '../store/postgres/index.js';
import { MIGRATIONS } from '../store/postgres/migrations/index.js';
import { StartError } from './serve.js';
import { describeChoice, lockDataDir, type StoreChoice } from './storeChoice.js';

/**
 * Runs `cashback migrate`: applies the schema migrations a database has not recorded yet (on a
 * PostgreSQL server, or PGlite in the data directory) and prints one line saying which.
 * @param choice - the database, a PostgreSQL server or PGlite (never memory)
 * @returns the versions applied now, ascending (empty when the schema was current)
 * @throws StartError when the database cannot be reached or a migration fails (exit 1)
 */
export async function migrateCommand(choice: StoreChoice): Promise<number[]> {
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
