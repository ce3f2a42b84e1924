import { MIGRATIONS, type Migration } from './migrations/index.js';
import type { SqlDriver } from './sql.js';

/** The table that records which migrations ran. */
const TABLE = 'cashback_migrations';

/**
 * Applies the migrations the database has not recorded yet, in one transaction under a
 * transaction-level advisory lock: two stores starting at once migrate once (the second waits,
 * then finds them recorded).
 * @param driver - the database
 * @param migrations - the migrations to apply, by ascending version
 * @returns the versions applied now, by ascending version (empty when the schema was current)
 */
export async function applyMigrations(
  driver: SqlDriver,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  return driver.transaction(async (client) => {
    await client.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('cashback-engine migrate', 0))`,
    );
    await client.exec(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const rows = await client.query(`SELECT version FROM ${TABLE}`);
    const done = new Set(rows.map((r) => Number(r.version)));
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.exec(m.sql);
      await client.query(`INSERT INTO ${TABLE} (version, name) VALUES ($1, $2)`, [
        m.version,
        m.name,
      ]);
      applied.push(m.version);
    }
    return applied;
  });
}
