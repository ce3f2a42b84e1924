import type { Offer } from '../../model/schemas.js';
import type { ClawbackRecord, OfferRevision, PaymentChangeRecord } from '../records.js';
import { requirePartner } from '../requirePartner.js';
import type { OfferRepository, PaymentRepository } from '../Store.js';
import { OFFERS_LOCK } from './confirmation.js';
import { orderKey } from './records.js';
import type { SqlClient, SqlRow } from './sql.js';

// The payment ledger in SQL (docs/postgres.md, The payment ledger): offer revisions, payments'
// histories and clawbacks (which payments are confirmed: confirmation.ts).

/** An offer revision from its row. */
function offerRevision(row: SqlRow): OfferRevision {
  return {
    offer: JSON.parse(row.record as string) as Offer,
    revision: row.revision as number,
    effective_at: row.effective_at as string,
  };
}

/**
 * Offers and their revisions. Inside a unit, `list` holds the offers until the unit ends (the
 * offers' advisory lock, which waits for the units storing transactions, and the revision row,
 * `FOR UPDATE`), so that two reloads number their revisions one after the other;
 * `upsert` is one statement after the offers' lock: the revisions appended, the current offers
 * replaced and the set's revision moved.
 * @param db - a unit's connection, or the driver
 * @param inUnit - whether `db` is a unit's connection
 * @returns the repository
 */
export function offers(db: SqlClient, inUnit: boolean): OfferRepository {
  return {
    list: async () => {
      if (inUnit) {
        // After the units storing transactions: none of them can see the revision move.
        await db.query(`SELECT pg_advisory_xact_lock(${OFFERS_LOCK})`);
        await db.query('SELECT 1 FROM cashback_offer_revision FOR UPDATE');
      }
      const rows = await db.query(
        `SELECT record::text AS record, revision, effective_at FROM cashback_offers
         ORDER BY offer_id`,
      );
      return rows.map(offerRevision);
    },
    history: async (ids) => {
      if (ids.length === 0) return [];
      const rows = await db.query(
        `SELECT record::text AS record, revision, effective_at FROM cashback_offer_revisions
         WHERE offer_id = ANY($1::bigint[]) ORDER BY offer_id, revision`,
        [[...new Set(ids)]],
      );
      return rows.map(offerRevision);
    },
    revision: async () => {
      const rows = await db.query(
        'SELECT revision::float8 AS revision FROM cashback_offer_revision',
      );
      return rows[0]?.revision as number;
    },
    upsert: async (list) => {
      if (list.length === 0) return;
      // As `list` does: the revision moves only once no unit storing transactions is open. (A
      // call on the store runs in a unit of its own.)
      if (inUnit) await db.query(`SELECT pg_advisory_xact_lock(${OFFERS_LOCK})`);
      const rows = await db.query(
        `WITH u AS (
           SELECT * FROM unnest($1::bigint[], $2::integer[], $3::json[], $4::text[])
             AS u(offer_id, revision, record, effective_at)
           WHERE u.revision = 1 + coalesce((SELECT max(r.revision) FROM cashback_offer_revisions r
             WHERE r.offer_id = u.offer_id), 0)
         ), kept AS (
           INSERT INTO cashback_offer_revisions (offer_id, revision, record, effective_at)
           SELECT * FROM u RETURNING offer_id
         ), current AS (
           INSERT INTO cashback_offers (offer_id, record, revision, effective_at)
           SELECT * FROM (SELECT u.offer_id, u.record, u.revision, u.effective_at FROM u) AS c
           ON CONFLICT (offer_id) DO UPDATE SET record = EXCLUDED.record,
             revision = EXCLUDED.revision, effective_at = EXCLUDED.effective_at
         ), moved AS (
           UPDATE cashback_offer_revision SET revision = revision + 1
         )
         SELECT count(*)::int AS n FROM kept`,
        [
          list.map((r) => r.offer.offer_id),
          list.map((r) => r.revision),
          list.map((r) => JSON.stringify(r.offer)),
          list.map((r) => r.effective_at),
        ],
      );
      if (rows[0]?.n !== list.length) {
        throw new Error(
          'An offer revision is not its offer next one (another reload stored one first); nothing was stored',
        );
      }
    },
  };
}

/** The columns of a history entry, as `changeRecord` reads them. */
const CHANGE_COLUMNS = `kind, transaction_id, return_id,
  previous_cashback_amount::text AS previous_cashback_amount, cashback_amount::text AS cashback_amount,
  customer_id, offer_id::float8 AS offer_id, offer_revision, amount::text AS amount, date, day,
  reported_at, event_id, recorded_at`;

/** A clawback from its row. */
function clawbackRecord(row: SqlRow): ClawbackRecord {
  return {
    return_id: row.return_id as string,
    transaction_id: row.transaction_id as string,
    customer_id: row.customer_id as string,
    offer_id: row.offer_id as number,
    offer_revision: row.offer_revision as number,
    amount: row.amount as string,
    date: row.date as string,
    day: row.day as string,
    reported_at: row.reported_at as string,
    event_id: row.event_id as string,
    recorded_at: row.recorded_at as string,
  };
}

/** A history entry from its row. */
function changeRecord(row: SqlRow): PaymentChangeRecord {
  if (row.kind === 'clawback') return { kind: 'clawback', ...clawbackRecord(row) };
  return {
    kind: 'adjustment',
    transaction_id: row.transaction_id as string,
    return_id: row.return_id as string,
    previous_cashback_amount: row.previous_cashback_amount as string,
    cashback_amount: row.cashback_amount as string,
    event_id: row.event_id as string,
    recorded_at: row.recorded_at as string,
  };
}

/** The value of one column of a history entry, `null` where its kind has none. */
function column(
  c: PaymentChangeRecord,
  name: keyof ClawbackRecord | 'previous_cashback_amount' | 'cashback_amount',
): unknown {
  return (c as unknown as Record<string, unknown>)[name] ?? null;
}

/** Appends history entries and moves the clawed-back totals, in one statement. */
const RECORD = `WITH c AS (
    SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[],
      $7::text[], $8::bigint[], $9::integer[], $10::numeric[], $11::text[], $12::text[],
      $13::text[], $14::text[], $15::text[], $16::text[]) WITH ORDINALITY
      AS c(kind, transaction_id, return_id, previous_cashback_amount, cashback_amount, customer_id,
        offer_id, offer_revision, amount, date, day, reported_at, event_id, recorded_at, order_key, n)
  ), kept AS (
    INSERT INTO cashback_payment_changes (partner, kind, transaction_id, return_id,
      previous_cashback_amount, cashback_amount, customer_id, offer_id, offer_revision, amount,
      date, day, reported_at, event_id, recorded_at, order_key)
    SELECT $1, kind, transaction_id, return_id, previous_cashback_amount, cashback_amount,
      customer_id, offer_id, offer_revision, amount, date, day, reported_at, event_id,
      recorded_at, decode(order_key, 'hex')
    FROM c ORDER BY n
  )
  UPDATE cashback_payments AS p SET clawed_back_amount = p.clawed_back_amount + s.amount
  FROM (SELECT transaction_id, sum(amount) AS amount FROM c WHERE kind = 'clawback'
    GROUP BY transaction_id) AS s
  WHERE p.partner = $1 AND p.transaction_id = s.transaction_id`;

/**
 * Payments' histories and clawbacks: `record` is one statement (the entries appended in order,
 * the payments' clawed-back totals moved), a clawback's return id unique by a partial index.
 * @param db - a unit's connection, or the driver
 * @returns the three methods
 */
export function paymentHistory(
  db: SqlClient,
): Pick<PaymentRepository, 'record' | 'history' | 'clawbacks'> {
  return {
    record: async (partner, changes) => {
      requirePartner(partner);
      if (changes.length === 0) return;
      const col = (name: Parameters<typeof column>[1]) => changes.map((c) => column(c, name));
      await db.query(RECORD, [
        partner,
        changes.map((c) => c.kind),
        changes.map((c) => c.transaction_id),
        changes.map((c) => c.return_id),
        col('previous_cashback_amount'),
        col('cashback_amount'),
        col('customer_id'),
        col('offer_id'),
        col('offer_revision'),
        col('amount'),
        col('date'),
        col('day'),
        col('reported_at'),
        changes.map((c) => c.event_id),
        changes.map((c) => c.recorded_at),
        changes.map((c) => orderKey(c.return_id)),
      ]);
    },
    history: async (partner, transactionId) => {
      requirePartner(partner);
      const rows = await db.query(
        `SELECT ${CHANGE_COLUMNS} FROM cashback_payment_changes
         WHERE partner = $1 AND transaction_id = $2 ORDER BY seq`,
        [partner, transactionId],
      );
      return rows.map(changeRecord);
    },
    clawbacks: async (partner, query) => {
      requirePartner(partner);
      // One statement: the count and the page read the same snapshot.
      const rows = await db.query(
        `SELECT ${CHANGE_COLUMNS}, count(*) OVER ()::float8 AS total FROM cashback_payment_changes
         WHERE partner = $1 AND kind = 'clawback' AND day BETWEEN $2 AND $3
         ORDER BY day, order_key OFFSET $4 LIMIT $5`,
        [partner, query.from, query.to, query.offset, query.limit],
      );
      const total =
        rows.length > 0
          ? (rows[0]?.total as number)
          : (
              await db.query(
                `SELECT count(*)::float8 AS total FROM cashback_payment_changes
                 WHERE partner = $1 AND kind = 'clawback' AND day BETWEEN $2 AND $3`,
                [partner, query.from, query.to],
              )
            )[0]?.total;
      return { total: total as number, items: rows.map(clawbackRecord) };
    },
  };
}
