// `cashback webhooks dead-letters` and `cashback webhooks redeliver`: the dead letters of the
// store a service writes to (docs/webhooks.md, docs/cli.md).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { DeliveryRepository, Store } from '../store/index.js';
import { createPgliteStore, createPostgresStore } from '../store/postgres/index.js';
import { UsageError } from './inputs.js';
import { lockDataDir, PGLITE_FOLDER } from './storeChoice.js';

/** Where the store is: the options every `webhooks` subcommand takes. */
interface StoreOptions {
  databaseUrl?: string;
  dataDir: string;
  partner?: string;
}

/** The PGlite database of a data directory: where `cashback serve` keeps its data. */
export function pgliteDirOf(dataDir: string): string {
  return join(resolve(dataDir), PGLITE_FOLDER);
}

function parseLimit(value: string): number {
  const n = /^[0-9]{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1)) throw new InvalidArgumentError('The limit must be a whole number of at least 1.');
  return n;
}

/**
 * Opens the store the options name and runs `fn` on its delivery state, then closes it. A PGlite
 * directory is locked as `cashback serve` locks it (one process at a time), and must hold a
 * database already: a mistyped `--data-dir` is an error, not a new empty database.
 */
async function withDeliveries<T>(
  options: StoreOptions,
  fn: (deliveries: DeliveryRepository) => Promise<T>,
): Promise<T> {
  if (options.dataDir === '') throw new UsageError('--data-dir (or CASHBACK_DATA_DIR) is empty');
  let unlock = (): void => undefined;
  let store: Store;
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    store = await createPostgresStore({ connectionString: options.databaseUrl });
  } else {
    const dir = pgliteDirOf(options.dataDir);
    if (!existsSync(dir)) {
      throw new UsageError(
        `no PGlite database in ${dir}: give the --data-dir of the service, or its --database-url`,
      );
    }
    unlock = lockDataDir(dir);
    try {
      store = await createPgliteStore({ dataDir: dir });
    } catch (err) {
      unlock();
      throw err;
    }
  }
  try {
    if (store.deliveries === undefined) throw new UsageError('this store keeps no delivery state');
    return await fn(store.deliveries);
  } finally {
    try {
      await store.close?.();
    } finally {
      unlock();
    }
  }
}

function storeOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--database-url <url>',
        'PostgreSQL server of the service (else PGlite in --data-dir)',
      ).env('DATABASE_URL'),
    )
    .addOption(
      new Option(
        '--data-dir <dir>',
        'data directory of the service; its PGlite database is <dir>/db',
      )
        .env('CASHBACK_DATA_DIR')
        .default('.cashback'),
    )
    .addOption(new Option('--partner <id>', "only this partner's dead letters"));
}

function print(text: string): Promise<void> {
  return new Promise((done) => process.stdout.write(text, () => done()));
}

/**
 * Adds `cashback webhooks` (`dead-letters`, `redeliver`) to the program.
 * @param program - the `cashback` program
 */
export function addWebhooksCommand(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description(
      'Webhook deliveries of a service: list and redeliver dead letters (docs/webhooks.md)',
    );

  storeOptions(
    webhooks
      .command('dead-letters')
      .description(
        'Print the dead letters, one JSON line each: event_id, partner, type, sequence, attempts, dead_at, error',
      )
      .addOption(
        new Option('--limit <n>', 'at most this many').argParser(parseLimit).default(1000),
      ),
  ).action(async (raw: StoreOptions & { limit: number }) => {
    const letters = await withDeliveries(raw, (d) =>
      d.deadLetters({
        limit: raw.limit,
        ...(raw.partner === undefined ? {} : { partner: raw.partner }),
      }),
    );
    const lines = letters.map((l) =>
      JSON.stringify({
        event_id: l.id,
        partner: l.partner,
        type: l.type,
        sequence: l.sequence,
        attempts: l.attempts,
        dead_at: new Date(l.dead_at).toISOString(),
        error: l.error,
      }),
    );
    await print(lines.map((l) => `${l}\n`).join(''));
    process.stderr.write(`${letters.length} dead letter${letters.length === 1 ? '' : 's'}\n`);
  });

  storeOptions(
    webhooks
      .command('redeliver')
      .description('Make dead letters pending again, due at once: those named, or --all')
      .argument('[event_id...]', 'event ids of dead letters')
      .option('--all', 'every dead letter (of --partner, when given)'),
  ).action(async (ids: string[], raw: StoreOptions & { all?: boolean }) => {
    if ((raw.all === true) === ids.length > 0) {
      throw new UsageError('redeliver takes event ids or --all, not both and not neither');
    }
    const done = await withDeliveries(raw, (d) =>
      d.redeliver({
        now: Date.now(),
        ...(raw.all === true ? {} : { ids }),
        ...(raw.partner === undefined ? {} : { partner: raw.partner }),
      }),
    );
    await print(done.map((id) => `${id}\n`).join(''));
    const missing = ids.filter((id) => !done.includes(id));
    process.stderr.write(
      `${done.length} redelivered${missing.length > 0 ? `; not dead letters: ${missing.join(', ')}` : ''}\n`,
    );
    if (missing.length > 0) process.exitCode = 1;
  });
}
