import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { SqlClient, SqlDriver, SqlRow } from './sql.js';

/** The query interface over one PGlite transaction or the database itself. */
function client(db: PGlite | Transaction): SqlClient {
  return {
    query: async (text, params) =>
      (await db.query<SqlRow>(text, params === undefined ? [] : [...params])).rows,
    exec: async (script) => {
      await db.exec(script);
    },
  };
}

/**
 * The driver over a PGlite database. PGlite is one connection: its `transaction` holds it, so
 * units of work run one after another and a statement on the database waits for the open unit.
 * @param db - the database
 * @param owned - whether `close` closes it (the store opened it)
 * @returns the driver
 */
export function pgliteDriver(db: PGlite, owned: boolean): SqlDriver {
  return {
    ...client(db),
    // PGlite runs no other session, so any isolation level behaves alike; its default (READ
    // COMMITTED) is the server's.
    transaction: (fn) => db.transaction((tx) => fn(client(tx))),
    close: async () => {
      if (owned && !db.closed) await db.close();
    },
  };
}
