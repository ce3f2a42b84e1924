import { requirePartner } from '../requirePartner.js';
import type { SqlClient, SqlRow } from './sql.js';

/** What a lookup by ids reads: a table of the partner's rows, the key each id matches, the columns. */
export interface IdLookup {
  /** The table, named `t` in the statement (as `TRANSACTION_COLUMNS` reads it). */
  readonly table:
    | 'cashback_customers'
    | 'cashback_transactions'
    | 'cashback_payments'
    | 'cashback_returns'
    | 'cashback_return_totals';
  /** The column each id is compared with, beside `partner`. */
  readonly key: 'customer_id' | 'transaction_id' | 'return_id';
  /** The select list of each row found. */
  readonly columns: string;
}

/**
 * The partner's rows of `lookup.table` whose `lookup.key` is among `ids`, in one statement (none
 * for an id that has none); what every `get` by ids of the SQL store runs.
 * @param db - a unit's connection, or the driver
 * @param lookup - the table, its key and the columns read
 * @param partner - the partner
 * @param ids - the keys
 * @returns the rows, each with the columns of `lookup.columns`
 * @throws TypeError when `partner` is not a partner id
 */
export async function rowsByIds(
  db: SqlClient,
  lookup: IdLookup,
  partner: string,
  ids: readonly string[],
): Promise<readonly SqlRow[]> {
  requirePartner(partner);
  if (ids.length === 0) return [];
  // One index probe per id (docs/postgres.md): a LATERAL subquery per id of `unnest`, which
  // `OFFSET 0` keeps from being merged into a join. For a thousand ids the planner picks a whole
  // table scan for `= ANY($2)`, and a hash join over the table when its statistics are stale
  // (just after a bulk load).
  return db.query(
    `SELECT r.* FROM unnest($2::text[]) AS u(id), LATERAL (
       SELECT ${lookup.columns} FROM ${lookup.table} t
       WHERE t.partner = $1 AND t.${lookup.key} = u.id OFFSET 0
     ) AS r`,
    [partner, ids],
  );
}
