import { requirePartner } from '../requirePartner.js';
import type { PaymentRepository } from '../Store.js';
import { type ConfirmationLock, confirmedEvent, LOCK_DAYS_OF_PAYMENTS } from './confirmation.js';
import { countPaymentDays } from './paymentDays.js';
import { PAYMENT_COLUMNS, storedPayment } from './records.js';
import { type IdLookup, rowsByIds } from './rowsByIds.js';
import type { SqlClient } from './sql.js';

const PAYMENTS: IdLookup = {
  table: 'cashback_payments',
  key: 'transaction_id',
  columns: `${PAYMENT_COLUMNS}, clawed_back_amount::text AS clawed_back_amount,
    ${confirmedEvent('t')} AS confirmed_event`,
};

/**
 * What returns read and change of payments: `get` by transaction id, and `adjust`: the partner's
 * confirmation lock (shared) so that no day of it opens meanwhile, the rows of the payments' days
 * being confirmed (`FOR SHARE`: a unit reading one of those days commits first), then one
 * conditional `UPDATE` of payments not confirmed (under READ COMMITTED a row a racing unit
 * changed is checked again against `previous_cashback_amount` once that unit commits), which
 * also takes the payments it brings to 0 off their days' counts (docs/postgres.md, Listings).
 * @param db - a unit's connection, or the driver (then only `get`: the store runs `adjust` in a
 *   unit of its own)
 * @param lock - the unit's confirmation locks (`undefined` outside a unit)
 * @returns the two methods
 */
export function paymentChanges(
  db: SqlClient,
  lock: ConfirmationLock | undefined,
): Pick<PaymentRepository, 'get' | 'adjust'> {
  return {
    get: async (partner, ids) => (await rowsByIds(db, PAYMENTS, partner, ids)).map(storedPayment),
    adjust: async (partner, list) => {
      requirePartner(partner);
      if (list.length === 0) return [];
      const ids = list.map((a) => a.transaction_id);
      await lock?.share(partner);
      await db.query(LOCK_DAYS_OF_PAYMENTS, [partner, ids]);
      const rows = await db.query(
        `WITH changed AS (
           UPDATE cashback_payments AS p SET cashback_amount = u.cashback_amount
           FROM unnest($2::text[], $3::numeric[], $4::numeric[])
             AS u(transaction_id, previous, cashback_amount)
           WHERE p.partner = $1 AND p.transaction_id = u.transaction_id
             AND p.cashback_amount = u.previous AND (${confirmedEvent('p')}) IS NULL
           RETURNING p.transaction_id, p.payment_date, u.cashback_amount = 0 AND u.previous <> 0
             AS cancelled
         ), counted AS (
           ${countPaymentDays(
             `SELECT payment_date, -count(*) AS n FROM changed WHERE cancelled
              GROUP BY payment_date`,
           )}
         )
         SELECT transaction_id FROM changed`,
        [
          partner,
          ids,
          list.map((a) => a.previous_cashback_amount),
          list.map((a) => a.cashback_amount),
        ],
      );
      return rows.map((r) => r.transaction_id as string);
    },
  };
}
