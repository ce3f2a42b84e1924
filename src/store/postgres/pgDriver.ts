import type { Pool, PoolClient } from 'pg';
import type { SqlClient, SqlDriver, SqlRow } from './sql.js';

const ignore = (): void => undefined;

/** The query interface over one pooled connection or the pool itself. */
function client(db: Pool | PoolClient): SqlClient {
  return {
    query: async (text, params) =>
      (await db.query<SqlRow>(text, params === undefined ? [] : [...params])).rows,
    exec: async (script) => {
      // Without parameters node-postgres uses the simple protocol, which runs several statements.
      await db.query(script);
    },
  };
}

/**
 * The driver over a node-postgres pool: each unit of work takes a connection of its own.
 * @param pool - the pool
 * @param owned - whether `close` ends it (the store made it)
 * @returns the driver
 */
export function pgDriver(pool: Pool, owned: boolean): SqlDriver {
  return {
    ...client(pool),
    transaction: async (fn) => {
      const connection = await pool.connect();
      // A connection lost while checked out is reported to its query; without a listener its
      // 'error' event would also end the process.
      connection.on('error', ignore);
      // A connection whose ROLLBACK failed is broken: destroy it rather than hand it out again.
      let broken: Error | undefined;
      try {
        await connection.query('BEGIN ISOLATION LEVEL READ COMMITTED');
        const result = await fn(client(connection));
        await connection.query('COMMIT');
        return result;
      } catch (e) {
        try {
          await connection.query('ROLLBACK');
        } catch (rollback) {
          broken = rollback instanceof Error ? rollback : new Error(String(rollback));
        }
        throw e;
      } finally {
        connection.off('error', ignore);
        connection.release(broken);
      }
    },
    close: async () => {
      if (owned) await pool.end();
    },
  };
}
