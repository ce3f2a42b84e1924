/**
 * The databases the PostgreSQL store's tests run on: PGlite always (in process), and a real
 * server when DATABASE_URL is set (.ci/run starts one with scripts/pg-cluster.sh).
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** The URL of a throwaway PostgreSQL server, when the run has one. */
const DATABASE_URL = process.env.DATABASE_URL;

/** Whether the tests on a server are skipped: no DATABASE_URL. */
export const SKIP_SERVER = DATABASE_URL === undefined || DATABASE_URL === '';

/** Says why a file's server tests are skipped, when they are. */
export function warnWhenSkipped(what: string): void {
  if (SKIP_SERVER) {
    console.warn(
      `[postgres] skipped: ${what} (DATABASE_URL is not set; \`eval "$(scripts/pg-cluster.sh start --fast)"\` starts a throwaway server and prints one)`,
    );
  }
}

/**
 * Empties every table of the store (the schema and its migrations stay, tables added by a later
 * migration included) and resets the offers revision.
 */
export const EMPTY = `DO $$ BEGIN
  EXECUTE (SELECT 'TRUNCATE ' || string_agg(quote_ident(tablename), ', ') FROM pg_tables
    WHERE schemaname = current_schema() AND tablename LIKE 'cashback\\_%'
      AND tablename NOT IN ('cashback_migrations', 'cashback_offer_revision'));
END $$;
UPDATE cashback_offer_revision SET revision = 0;`;

/** One in-memory PGlite database for a test file, emptied by `fresh()` before each store. */
export function sharedPglite(): { db: () => Promise<PGlite>; close: () => Promise<void> } {
  let db: Promise<PGlite> | undefined;
  return {
    db: () => {
      db ??= PGlite.create();
      return db;
    },
    close: async () => {
      if (db !== undefined) await (await db).close();
    },
  };
}

/** A fresh database on the server: a new one per call, so tests never see each other's data. */
export async function freshServerDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const name = `cashback_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(DATABASE_URL as string);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
