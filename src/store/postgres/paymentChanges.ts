import { requirePartner } from '../requirePartner.js';
import type { PaymentRepository } from '../Store.js';
import { STORED_PAYMENT_COLUMNS, storedPayment } from './records.js';
import { type IdLookup, rowsByIds } from './rowsByIds.js';
import type { SqlClient } from './sql.js';

const PAYMENTS: IdLookup = {
  table: 'cashback_payments',
  key: 'transaction_id',
  columns: STORED_PAYMENT_COLUMNS,
};

/**
 * What returns read and change of payments: `get` by transaction id, and `adjust`, one
 * conditional `UPDATE` of payments not confirmed (under READ COMMITTED a row a racing unit
 * changed is checked again against `previous_cashback_amount` once that unit commits).
 * @param db - a unit's connection, or the driver
 * @returns the two methods
 */
export function paymentChanges(db: SqlClient): Pick<PaymentRepository, 'get' | 'adjust'> {
  return {
    get: async (partner, ids) => (await rowsByIds(db, PAYMENTS, partner, ids)).map(storedPayment),
    adjust: async (partner, list) => {
      requirePartner(partner);
      if (list.length === 0) return [];
      const rows = await db.query(
        `UPDATE cashback_payments AS p SET cashback_amount = u.cashback_amount
         FROM unnest($2::text[], $3::numeric[], $4::numeric[])
           AS u(transaction_id, previous, cashback_amount)
         WHERE p.partner = $1 AND p.transaction_id = u.transaction_id
           AND p.cashback_amount = u.previous AND p.confirmed_event IS NULL
         RETURNING p.transaction_id`,
        [
          partner,
          list.map((a) => a.transaction_id),
          list.map((a) => a.previous_cashback_amount),
          list.map((a) => a.cashback_amount),
        ],
      );
      return rows.map((r) => r.transaction_id as string);
    },
  };
}
