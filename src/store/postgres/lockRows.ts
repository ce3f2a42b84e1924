import type { SqlClient } from './sql.js';

/** A table whose rows a unit of work locks before it inserts rows that refer to them. */
export type LockedRows =
  | { readonly table: 'cashback_customers'; readonly key: 'customer_id' }
  | { readonly table: 'cashback_transactions'; readonly key: 'transaction_id' };

/**
 * Locks (`FOR NO KEY UPDATE`, until the unit commits) the partner's rows of `rows.table` whose
 * `rows.key` is among `ids`, taken in one order (the "C" collation) so that two units locking
 * overlapping sets wait for each other instead of deadlocking. Rows that do not exist lock nothing.
 * @param db - the unit's connection
 * @param rows - the table and its key column
 * @param partner - the partner
 * @param ids - the keys, duplicates allowed
 */
export async function lockRows(
  db: SqlClient,
  rows: LockedRows,
  partner: string,
  ids: Iterable<string>,
): Promise<void> {
  await db.query(
    `SELECT l.* FROM (SELECT id FROM unnest($2::text[]) AS id ORDER BY id COLLATE "C") AS u,
     LATERAL (
       SELECT 1 FROM ${rows.table} WHERE partner = $1 AND ${rows.key} = u.id FOR NO KEY UPDATE
     ) AS l`,
    [partner, [...new Set(ids)]],
  );
}
