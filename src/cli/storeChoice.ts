import { createHash, randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { createMemoryStore } from '../store/memory/createMemoryStore.js';
import { createPgliteStore, createPostgresStore } from '../store/postgres/index.js';
import type { Store } from '../store/Store.js';
import { UsageError } from './inputs.js';

/** Name of the folder of the data directory that holds the PGlite database. */
export const PGLITE_FOLDER = 'db';

/** The environment variable that names a PostgreSQL server when `--database-url` is not given. */
export const DATABASE_URL_ENV = 'DATABASE_URL';

/** The store `cashback serve` or `cashback migrate` works on, chosen from the command line. */
export type StoreChoice =
  /** The memory store, with its bound (`undefined`: the store's default). */
  | { readonly kind: 'memory'; readonly maxRecords?: number }
  /** PGlite, in `<data-dir>/db`. */
  | { readonly kind: 'pglite'; readonly dataDir: string }
  /** A PostgreSQL server. */
  | { readonly kind: 'postgres'; readonly url: string };

/** The store flags as commander gives them, with where `--database-url` came from. */
export interface StoreFlags {
  /** `--memory` given. */
  readonly memory?: boolean;
  /** `--memory-max-records`. */
  readonly memoryMaxRecords?: number;
  /** `--database-url`, or `DATABASE_URL`. */
  readonly databaseUrl?: string;
  /** `cli` when `--database-url` was given, `env` when it came from `DATABASE_URL`. */
  readonly databaseUrlSource?: string;
  /** `--data-dir`. */
  readonly dataDir: string;
}

/**
 * Parses `--memory-max-records`: a whole number, at least 1.
 * @param value - the option's text
 * @returns the bound
 * @throws InvalidArgumentError (commander's) for anything else
 */
export function parseMaxRecords(value: string): number {
  const n = /^[0-9]{1,15}$/.test(value) ? Number(value) : 0;
  if (n < 1) throw new InvalidArgumentError('The bound must be a whole number of records, ≥ 1.');
  return n;
}

/**
 * A PostgreSQL URL without its password or query: `postgres://user@host:5432/db`, for logs and
 * messages.
 * @param url - the URL, already checked by {@link chooseStore}
 * @returns the URL without secrets
 */
function describeDatabaseUrl(url: string): string {
  const u = new URL(url);
  const user = u.username === '' ? '' : `${u.username}@`;
  return `${u.protocol}//${user}${u.host}${u.pathname}`;
}

/**
 * Chooses the store from the flags: `--memory`, a PostgreSQL server (`--database-url` or
 * `DATABASE_URL`), or PGlite in the data directory (the default). An explicit `--memory` wins
 * over `DATABASE_URL` from the environment; with an explicit `--database-url` it is a usage error.
 * @param flags - the parsed flags
 * @returns the choice
 * @throws UsageError for conflicting flags or a URL that is not a PostgreSQL URL
 */
export function chooseStore(flags: StoreFlags): StoreChoice {
  const url = flags.databaseUrl === '' ? undefined : flags.databaseUrl;
  if (flags.memory === true) {
    if (url !== undefined && flags.databaseUrlSource === 'cli') {
      throw new UsageError('--memory and --database-url choose two stores: give one of them');
    }
    return flags.memoryMaxRecords === undefined
      ? { kind: 'memory' }
      : { kind: 'memory', maxRecords: flags.memoryMaxRecords };
  }
  if (flags.memoryMaxRecords !== undefined) {
    throw new UsageError('--memory-max-records bounds the memory store: it needs --memory');
  }
  if (url !== undefined) {
    const from = flags.databaseUrlSource === 'cli' ? '--database-url' : DATABASE_URL_ENV;
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {
      // reported below, without the URL (it may hold a password)
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
      throw new UsageError(
        `${from} must be a URL such as postgres://user:password@host:5432/database`,
      );
    }
    return { kind: 'postgres', url };
  }
  return { kind: 'pglite', dataDir: join(resolve(flags.dataDir), PGLITE_FOLDER) };
}

/** Where a store choice keeps its data, in words, without a password. */
export function describeChoice(choice: StoreChoice): string {
  if (choice.kind === 'postgres') return `PostgreSQL at ${describeDatabaseUrl(choice.url)}`;
  if (choice.kind === 'pglite') return `PGlite in ${choice.dataDir}`;
  return 'memory';
}

/** Whether a process with this id runs (one of another user counts). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Tries of a lock before giving up; the pause between two while another process takes it over. */
const LOCK_TRIES = 200;
const TAKE_OVER_PAUSE_MS = 10;
/** Take-overs left half done by a killed process, followed one inside the other, at most. */
const TAKE_OVER_DEPTH = 3;

/** Blocks this thread for `ms`: nothing else runs before the store is open. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The text of a file; undefined when there is none. */
function readIfAny(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Creates `path` holding `content`, unless it exists: the text is written under a name of its own,
 * then linked, so that no process ever reads the lock empty or half written.
 * @returns whether this call created it
 */
function createWhole(path: string, content: string): boolean {
  const draft = `${path}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(draft, content, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** Removes the lock `path` if it is still the one `content` says this process took. */
function giveBack(path: string, content: string): void {
  if (readIfAny(path) === content) rmSync(path, { force: true });
}

/**
 * Takes the lock file `path` (its first line a process id, its second a token of its own): creates
 * it, or removes one whose process is gone and tries again. Only the holder of
 * `<path>.<digest of that lock's text>`, a lock taken the same way, may remove it, and only while
 * it is still that lock: so of processes that find one stale lock, one removes it and the others
 * find the lock that replaced it, never a lock of their own beside it.
 * @returns the text written, or the live process that holds the lock
 */
function takeLock(path: string, depth: number): { content: string } | { holder: number } {
  const content = `${process.pid}\n${randomUUID()}\n`;
  for (let attempt = 0; attempt < LOCK_TRIES; attempt++) {
    if (createWhole(path, content)) return { content };
    const seen = readIfAny(path);
    if (seen === undefined) continue; // given back meanwhile
    const holder = Number(seen.split('\n', 1)[0]);
    if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && running(holder)) {
      return { holder };
    }
    if (depth === TAKE_OVER_DEPTH) break;
    const right = `${path}.${createHash('sha256').update(seen).digest('hex').slice(0, 16)}`;
    const taken = takeLock(right, depth + 1);
    if (!('content' in taken)) {
      pause(TAKE_OVER_PAUSE_MS); // another process is taking this lock over
      continue;
    }
    try {
      if (readIfAny(path) === seen) rmSync(path); // left by a process that is gone
    } finally {
      giveBack(right, taken.content);
    }
  }
  throw new Error(`cannot take the lock ${path}; if no process of cashback runs, remove ${path}*`);
}

/**
 * Takes `<dir>.lock` for this process: PGlite has no lock of its own, and two processes writing
 * one data directory would corrupt it. A lock left by a process that is gone (a SIGKILL) is taken
 * over, by one process only when several find it at once.
 * @param dir - the PGlite data directory
 * @returns the function that gives the lock back
 * @throws Error naming the process that holds the directory
 */
export function lockDataDir(dir: string): () => void {
  const path = `${dir}.lock`;
  const taken = takeLock(path, 0);
  if ('holder' in taken) {
    throw new Error(
      `the PGlite data directory ${dir} is in use by process ${taken.holder} (${path}); stop it, or give another --data-dir`,
    );
  }
  return () => giveBack(path, taken.content);
}

/** A store that is open, and what to say about it. */
export interface OpenedStore {
  readonly store: Store;
  /** One line for the start message. */
  readonly description: string;
  /** What becomes of the data when the process exits, for the shutdown line. */
  readonly afterExit: string;
}

/**
 * Opens the chosen store; a PostgreSQL store brings the schema up to date first.
 * @param choice - from {@link chooseStore}
 * @param onPressure - called when the memory store passes its warning mark
 * @returns the open store
 * @throws StoreUnavailableError when the server cannot be reached; an error naming the package to
 *   install when `pg` or `@electric-sql/pglite` is missing
 */
export async function openStore(
  choice: StoreChoice,
  onPressure: (usage: { records: number; maxRecords: number }) => void,
): Promise<OpenedStore> {
  if (choice.kind === 'memory') {
    const store = createMemoryStore({
      ...(choice.maxRecords === undefined ? {} : { maxRecords: choice.maxRecords }),
      onPressure,
    });
    const { maxRecords } = store.usage();
    return {
      store,
      description: `memory, at most ${maxRecords} records (a warning at 80%): everything is lost when the process exits`,
      afterExit: 'memory store: this data is gone now that the process exits',
    };
  }
  if (choice.kind === 'pglite') {
    mkdirSync(choice.dataDir, { recursive: true, mode: 0o700 });
    const unlock = lockDataDir(choice.dataDir);
    let store: Store;
    try {
      store = await createPgliteStore({ dataDir: choice.dataDir });
    } catch (err) {
      unlock();
      throw err;
    }
    const close = store.close;
    return {
      store: {
        ...store,
        close: async () => {
          await close?.();
          unlock();
        },
      },
      description: `PGlite in ${choice.dataDir} (kept across restarts)`,
      afterExit: `kept in ${choice.dataDir}`,
    };
  }
  const where = describeDatabaseUrl(choice.url);
  return {
    store: await createPostgresStore({ connectionString: choice.url }),
    description: `PostgreSQL at ${where}`,
    afterExit: `kept in PostgreSQL at ${where}`,
  };
}
