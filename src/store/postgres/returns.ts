import type { ReturnRecord } from '../records.js';
import { requirePartner } from '../requirePartner.js';
import type { ReturnRepository } from '../Store.js';
import type { ConfirmationLock } from './confirmation.js';
import { type LockedRows, lockRows } from './lockRows.js';
import { type IdLookup, rowsByIds } from './rowsByIds.js';
import type { SqlClient, SqlRow } from './sql.js';

/** A return from its row. */
function returnRecord(row: SqlRow): ReturnRecord {
  return {
    return_id: row.return_id as string,
    transaction_id: row.transaction_id as string,
    date: row.date as string,
    day: row.day as string,
    amount: row.amount as string,
    event_id: row.event_id as string,
  };
}

const RETURN_IDS: IdLookup = { table: 'cashback_returns', key: 'return_id', columns: 'return_id' };
const RETURNED_TOTALS: IdLookup = {
  table: 'cashback_return_totals',
  key: 'transaction_id',
  columns: 'transaction_id, amount::text AS amount, count::float8 AS count',
};
const RETURNS_OF_TRANSACTIONS: IdLookup = {
  table: 'cashback_returns',
  key: 'transaction_id',
  columns: 'return_id, transaction_id, date, day, amount::text AS amount, event_id',
};

/** The transactions whose returns a unit decides or inserts, locked until it ends. */
const RETURNED: LockedRows = { table: 'cashback_transactions', key: 'transaction_id' };

/**
 * Inserts the returns not stored yet and moves their transactions' running totals, in one
 * statement (a data-modifying `WITH` runs whether or not the query reads it); the totals in
 * `transaction_id` order, so that two inserts outside a unit never deadlock on them.
 */
const INSERT = `WITH inserted AS (
    INSERT INTO cashback_returns (partner, return_id, transaction_id, date, day, amount, event_id)
    SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::numeric[],
      $7::text[]) AS u
    ON CONFLICT (partner, return_id) DO NOTHING
    RETURNING return_id, transaction_id, amount
  ), totals AS (
    INSERT INTO cashback_return_totals AS t (partner, transaction_id, amount, count)
    SELECT $1, transaction_id, sum(amount), count(*) FROM inserted
    GROUP BY transaction_id ORDER BY transaction_id
    ON CONFLICT (partner, transaction_id)
      DO UPDATE SET amount = t.amount + EXCLUDED.amount, count = t.count + EXCLUDED.count
  )
  SELECT return_id FROM inserted`;

/**
 * Returns. Inside a unit, `hold` takes the partner's confirmation lock (shared: the unit may
 * change payments, docs/postgres.md, Confirmation), and `hold` and `insert` lock the returns' transactions in
 * `transaction_id` order (docs/stores.md, Returns): two statements each. Lists of ids are looked
 * up by `rowsByIds`; what a transaction has had returned is one row of `cashback_return_totals`.
 * @param db - a unit's connection, or the driver
 * @param lock - the unit's confirmation locks, which `hold` takes first (`undefined` outside a
 *   unit, where nothing is locked)
 * @returns the repository
 */
export function returns(db: SqlClient, lock: ConfirmationLock | undefined): ReturnRepository {
  return {
    existing: async (partner, ids) =>
      (await rowsByIds(db, RETURN_IDS, partner, ids)).map((r) => r.return_id as string),
    hold: async (partner, ids) => {
      requirePartner(partner);
      if (lock !== undefined && ids.length > 0) {
        await lock.share(partner);
        await lockRows(db, RETURNED, partner, ids);
      }
      const rows = await rowsByIds(db, RETURNED_TOTALS, partner, [...new Set(ids)]);
      return rows.map((r) => ({
        transaction_id: r.transaction_id as string,
        amount: r.amount as string,
        count: r.count as number,
      }));
    },
    ofTransactions: async (partner, ids) =>
      (await rowsByIds(db, RETURNS_OF_TRANSACTIONS, partner, ids)).map(returnRecord),
    insert: async (partner, list) => {
      requirePartner(partner);
      if (list.length === 0) return [];
      if (lock !== undefined) {
        await lockRows(
          db,
          RETURNED,
          partner,
          list.map((r) => r.transaction_id),
        );
      }
      const rows = await db.query(INSERT, [
        partner,
        list.map((r) => r.return_id),
        list.map((r) => r.transaction_id),
        list.map((r) => r.date),
        list.map((r) => r.day),
        list.map((r) => r.amount),
        list.map((r) => r.event_id),
      ]);
      return rows.map((r) => r.return_id as string);
    },
  };
}
