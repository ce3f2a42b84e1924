import type { ReturnRecord } from '../records.js';
import { requirePartner } from '../requirePartner.js';
import type { ReturnRepository } from '../Store.js';
import { lockRows } from './lockRows.js';
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
const RETURNS_OF_TRANSACTIONS: IdLookup = {
  table: 'cashback_returns',
  key: 'transaction_id',
  columns: 'return_id, transaction_id, date, day, amount::text AS amount, event_id',
};

/**
 * Returns. Inside a unit, `insert` first locks the returns' transactions in `transaction_id`
 * order (docs/stores.md, transactions held by a return insert), then inserts if absent: two
 * statements. Lists of ids are looked up by `rowsByIds`.
 * @param db - a unit's connection, or the driver
 * @param inUnit - whether `db` is a unit's connection
 * @returns the repository
 */
export function returns(db: SqlClient, inUnit: boolean): ReturnRepository {
  return {
    existing: async (partner, ids) =>
      (await rowsByIds(db, RETURN_IDS, partner, ids)).map((r) => r.return_id as string),
    ofTransactions: async (partner, ids) =>
      (await rowsByIds(db, RETURNS_OF_TRANSACTIONS, partner, ids)).map(returnRecord),
    insert: async (partner, list) => {
      requirePartner(partner);
      if (list.length === 0) return [];
      if (inUnit) {
        await lockRows(
          db,
          { table: 'cashback_transactions', key: 'transaction_id' },
          partner,
          list.map((r) => r.transaction_id),
        );
      }
      const rows = await db.query(
        `INSERT INTO cashback_returns (partner, return_id, transaction_id, date, day, amount,
           event_id)
         SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[],
           $6::numeric[], $7::text[]) AS u
         ON CONFLICT (partner, return_id) DO NOTHING
         RETURNING return_id`,
        [
          partner,
          list.map((r) => r.return_id),
          list.map((r) => r.transaction_id),
          list.map((r) => r.date),
          list.map((r) => r.day),
          list.map((r) => r.amount),
          list.map((r) => r.event_id),
        ],
      );
      return rows.map((r) => r.return_id as string);
    },
  };
}
