import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import { assertKnownKeys } from '../../model/knownKeys.js';
import { wholeNumber } from '../../model/wholeNumber.js';
import type { Store } from '../Store.js';
import { storeError } from './errors.js';
import { applyMigrations } from './migrate.js';
import { pgDriver } from './pgDriver.js';
import { pgliteDriver } from './pgliteDriver.js';
import type { SqlDriver } from './sql.js';
import { sqlStore } from './sqlStore.js';

// The store contract (`cashback-engine/store`) that the stores made here are: exported by this
// entry too, so that a caller names the types of what it gets from the entry it calls.
export type {
  Channel,
  Location,
  Merchant,
  Offer,
  OfferInput,
  RewardInput,
  ScopeInput,
} from '../../model/index.js';
export type {
  ActivationQuery,
  ActivationRecord,
  ActivationRepository,
  ClaimedDelivery,
  CustomerRecord,
  CustomerRepository,
  DeadLetter,
  DeliveryClaimQuery,
  DeliveryRef,
  DeliveryRepository,
  FundingChange,
  FundingRange,
  FundingRecount,
  FundingRepository,
  FundingTotal,
  OfferRepository,
  OutboxEvent,
  OutboxEventType,
  OutboxRepository,
  PaymentAdjustment,
  PaymentPage,
  PaymentQuery,
  PaymentRecord,
  PaymentRepository,
  PurchaseQuery,
  ReturnedTotal,
  ReturnRecord,
  ReturnRepository,
  Store,
  StoredOutboxEvent,
  StoreSession,
  TransactionInsertOptions,
  TransactionRecord,
  TransactionRepository,
} from '../index.js';

/**
 * Options of {@link createPostgresStore}: a connection string, or a node-postgres pool.
 * @public
 */
export interface PostgresStoreOptions {
  /**
   * A PostgreSQL URL (`postgres://user:password@host:5432/db`). The store makes a pool of its own
   * and ends it on `close`. Give this or `pool`, not both.
   */
  readonly connectionString?: string;
  /**
   * A node-postgres `Pool` to use. The store does not end it on `close`, and adds no `'error'`
   * listener to it: handle idle clients' errors yourself (`pool.on('error', …)`).
   */
  readonly pool?: Pool;
  /**
   * Connections in the pool the store makes from `connectionString` (each open unit of work
   * holds one).
   * @defaultValue `10`
   */
  readonly poolSize?: number;
}

/**
 * Options of {@link createPgliteStore}: where PGlite keeps its data, or an open PGlite database.
 * Give neither for a database in memory.
 * @public
 */
export interface PgliteStoreOptions {
  /**
   * A directory for the database files: the data survives the process. The store opens it and
   * closes it on `close`.
   * @defaultValue none: in memory, gone with the process
   */
  readonly dataDir?: string;
  /** An open PGlite database to use. The store does not close it. */
  readonly db?: PGlite;
}

/**
 * Options of {@link migrate}: which database to bring to the current schema. Exactly one.
 * @public
 */
export interface MigrateOptions {
  /** A PostgreSQL URL; a connection is opened for the migration and closed after it. */
  readonly connectionString?: string;
  /** A node-postgres pool (left open). */
  readonly pool?: Pool;
  /** A PGlite data directory (opened and closed). */
  readonly dataDir?: string;
  /** An open PGlite database (left open). */
  readonly db?: PGlite;
}

const POSTGRES_KEYS = ['connectionString', 'pool', 'poolSize'] as const;
const PGLITE_KEYS = ['dataDir', 'db'] as const;
const MIGRATE_KEYS = ['connectionString', 'pool', 'dataDir', 'db'] as const;

/** Loads an optional peer dependency, or says which package to install. */
async function load<T>(name: string, loader: () => Promise<T>, caller: string): Promise<T> {
  try {
    return await loader();
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(
        `${caller} needs the package '${name}', which is not installed: npm install ${name}`,
        { cause: e },
      );
    }
    throw e;
  }
}

/** Exactly one of these keys is set (a non-undefined value). */
function exactlyOne<K extends string>(
  options: Partial<Record<K, unknown>>,
  keys: readonly K[],
  label: string,
): K | undefined {
  const given = keys.filter((k) => options[k] !== undefined);
  if (given.length > 1) {
    throw new TypeError(`${label}: give only one of ${given.join(', ')}`);
  }
  return given[0];
}

/** The driver over a server: the given pool, or a new one from the URL. */
async function serverDriver(options: PostgresStoreOptions, label: string): Promise<SqlDriver> {
  if (options.pool !== undefined) return pgDriver(options.pool, false);
  const url = options.connectionString;
  if (typeof url !== 'string' || url.length === 0) {
    throw new TypeError(`${label}: connectionString must be a non-empty string`);
  }
  const size = wholeNumber(options.poolSize ?? 10, `${label}: poolSize`, { min: 1 });
  const pg = await load('pg', () => import('pg'), label);
  const Pool = pg.default?.Pool ?? (pg as unknown as { Pool: typeof pg.default.Pool }).Pool;
  const pool = new Pool({ connectionString: url, max: size, connectionTimeoutMillis: 10_000 });
  // An idle connection the server closed is dropped by the pool, and the next call opens a new
  // one; the event needs a listener, or it would end the process.
  pool.on('error', () => undefined);
  return pgDriver(pool, true);
}

/** The driver over PGlite: the given database, or one opened in `dataDir` (or in memory). */
async function pgliteDriverFor(options: PgliteStoreOptions, label: string): Promise<SqlDriver> {
  if (options.db !== undefined) return pgliteDriver(options.db, false);
  if (
    options.dataDir !== undefined &&
    (typeof options.dataDir !== 'string' || options.dataDir === '')
  ) {
    throw new TypeError(`${label}: dataDir must be a non-empty string`);
  }
  const { PGlite } = await load(
    '@electric-sql/pglite',
    () => import('@electric-sql/pglite'),
    label,
  );
  // PGlite makes the last folder of the path only; a first start in `./.cashback/db` needs both.
  if (options.dataDir !== undefined) await mkdir(options.dataDir, { recursive: true });
  return pgliteDriver(await PGlite.create(options.dataDir), true);
}

/** Migrates, then hands out the store; on failure closes what it opened. */
async function start(driver: SqlDriver): Promise<Store> {
  try {
    await applyMigrations(driver);
  } catch (e) {
    await driver.close().catch(() => undefined);
    throw storeError(e);
  }
  return sqlStore(driver);
}

/**
 * Creates a store on a PostgreSQL server through node-postgres (`pg`, an optional peer
 * dependency: `npm install pg`). It brings the schema up to date before it resolves (see
 * {@link migrate}). Units of work are PostgreSQL transactions at READ COMMITTED; payments are
 * exactly-once by primary key, also across processes sharing the database. A call made while the
 * server cannot be reached rejects with `StoreUnavailableError` and keeps nothing (unless the
 * connection was lost during the unit's COMMIT: then the error's `outcomeUnknown` is set, and
 * making the call again is safe); the store works again once the server is back. See docs/postgres.md.
 * @param options - `connectionString` (a pool made and ended by the store) or `pool` (yours)
 * @returns the store, once migrated
 * @throws TypeError for unknown options, both or neither of `connectionString` and `pool`;
 *   `StoreUnavailableError` when the server cannot be reached; an error naming the package when
 *   `pg` is not installed
 * @example
 * ```ts
 * import { createEngine } from 'cashback-engine/engine';
 * import { createPostgresStore } from 'cashback-engine/postgres';
 *
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL });
 * const engine = createEngine({ store });
 * // … on shutdown:
 * await store.close?.();
 * ```
 * @public
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const label = 'createPostgresStore options';
  assertKnownKeys(options, POSTGRES_KEYS, label);
  const which = exactlyOne(options ?? {}, ['connectionString', 'pool'], label);
  if (which === undefined) throw new TypeError(`${label}: give connectionString or pool`);
  if (which === 'pool' && options.poolSize !== undefined) {
    throw new TypeError(`${label}: poolSize applies only to a pool made from connectionString`);
  }
  return start(await serverDriver(options, 'createPostgresStore'));
}

/**
 * Creates the same store over PGlite (`@electric-sql/pglite`, PostgreSQL compiled to
 * WebAssembly, an optional peer dependency): no server to install. Durable in `dataDir`, in
 * memory without one. Same SQL and migrations as {@link createPostgresStore}; PGlite is a single
 * connection, so units of work run one after another. See docs/postgres.md.
 * @param options - `dataDir` (opened and closed by the store), `db` (yours), or neither
 * @returns the store, once migrated
 * @throws TypeError for unknown options or both `dataDir` and `db`; an error naming the package
 *   when `@electric-sql/pglite` is not installed
 * @example
 * ```ts
 * import { createPgliteStore } from 'cashback-engine/postgres';
 *
 * const store = await createPgliteStore({ dataDir: './.cashback/db' });
 * ```
 * @public
 */
export async function createPgliteStore(options: PgliteStoreOptions = {}): Promise<Store> {
  const label = 'createPgliteStore options';
  assertKnownKeys(options, PGLITE_KEYS, label);
  exactlyOne(options ?? {}, ['dataDir', 'db'], label);
  return start(await pgliteDriverFor(options ?? {}, 'createPgliteStore'));
}

/**
 * Brings a database to the current schema: applies the migrations it has not recorded (table
 * `cashback_migrations`), in one transaction under an advisory lock, so that processes starting
 * at once migrate once. The stores call it when they start; call it yourself to migrate ahead of
 * a deploy.
 * @param options - exactly one of `connectionString`, `pool`, `dataDir`, `db`
 * @returns the versions applied now, ascending (empty when the schema was current)
 * @throws TypeError for unknown options or not exactly one target; `StoreUnavailableError` when
 *   the server cannot be reached
 * @example
 * ```ts
 * const applied = await migrate({ connectionString: process.env.DATABASE_URL });
 * ```
 * @public
 */
export async function migrate(options: MigrateOptions): Promise<number[]> {
  const label = 'migrate options';
  assertKnownKeys(options, MIGRATE_KEYS, label);
  const which = exactlyOne(options ?? {}, MIGRATE_KEYS, label);
  if (which === undefined)
    throw new TypeError(`${label}: give connectionString, pool, dataDir or db`);
  const driver =
    which === 'connectionString' || which === 'pool'
      ? await serverDriver(
          which === 'pool'
            ? { pool: options.pool }
            : { connectionString: options.connectionString, poolSize: 1 },
          'migrate',
        )
      : await pgliteDriverFor(
          which === 'db' ? { db: options.db } : { dataDir: options.dataDir },
          'migrate',
        );
  try {
    return await applyMigrations(driver);
  } catch (e) {
    throw storeError(e);
  } finally {
    await driver.close();
  }
}
// The payment ledger (docs/concepts.md, The lifecycle of a payment): the types its signatures name.
export type {
  ClawbackPage,
  ClawbackRecord,
  ConfirmationQuery,
  ConfirmationRepository,
  ConfirmedPayments,
  OfferRevision,
  PaymentChangeRecord,
  StoredPayment,
} from '../index.js';
