/**
 * The tiny query interface the PostgreSQL store is written against. node-postgres and PGlite
 * both satisfy it (see `pgDriver.ts` and `pgliteDriver.ts`), so the two run the same SQL.
 */

/** A row as a driver returns it: column name to value. */
export type SqlRow = Record<string, unknown>;

/** Runs statements on one connection (or on the pool, one statement at a time). */
export interface SqlClient {
  /**
   * Runs one statement with bind parameters (`$1`, `$2`, …) and returns its rows.
   * @param text - the statement
   * @param params - its parameters; arrays bind as PostgreSQL arrays
   * @returns the rows
   */
  query(text: string, params?: readonly unknown[]): Promise<readonly SqlRow[]>;
  /**
   * Runs a script of several statements without parameters (a migration file).
   * @param script - the statements, separated by semicolons
   */
  exec(script: string): Promise<void>;
}

/** A connection source: statements on their own, or a transaction on one connection. */
export interface SqlDriver extends SqlClient {
  /**
   * Runs `fn` inside `BEGIN ISOLATION LEVEL READ COMMITTED` … `COMMIT` on one connection; rolls
   * back and rethrows when `fn` throws.
   * @param fn - the work, given the connection
   * @returns what `fn` returns
   */
  transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T>;
  /** Ends what the driver opened itself (never a pool or database it was given). */
  close(): Promise<void>;
}
