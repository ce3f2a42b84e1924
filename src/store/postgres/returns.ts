import type { ReturnRecord } from '../records.js';
import { requirePartner } from '../requirePartner.js';
import type { ReturnRepository } from '../Store.js';
import { lockRows } from './lockRows.js';
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

/**
 * Returns. Inside a unit, `insert` first locks the returns' transactions in `transaction_id`
 * order (docs/stores.md, transactions held by a return insert), then inserts if absent: two
 * statements. Lists of ids are looked up one by one, as in `repositories.ts`.
 * @param db - a unit's connection, or the driver
 * @param inUnit - whether `db` is a unit's connection
 * @returns the repository
 */
export function returns(db: SqlClient, inUnit: boolean): ReturnRepository {
  return {
    existing: async (partner, ids) => {
      requirePartner(partner);
      if (ids.length === 0) return [];
      const rows = await db.query(
        `SELECT r.return_id FROM unnest($2::text[]) AS u(id), LATERAL (
           SELECT return_id FROM cashback_returns
           WHERE partner = $1 AND return_id = u.id OFFSET 0
         ) AS r`,
        [partner, ids],
      );
      return rows.map((r) => r.return_id as string);
    },
    ofTransactions: async (partner, ids) => {
      requirePartner(partner);
      if (ids.length === 0) return [];
      const rows = await db.query(
        `SELECT r.* FROM unnest($2::text[]) AS u(id), LATERAL (
           SELECT return_id, transaction_id, date, day, amount::text AS amount, event_id
           FROM cashback_returns WHERE partner = $1 AND transaction_id = u.id OFFSET 0
         ) AS r`,
        [partner, ids],
      );
      return rows.map(returnRecord);
    },
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
