import type { DeliveryRef, DeliveryRepository } from '../Store.js';
import { outboxEvent } from './records.js';
import type { SqlClient, SqlRow } from './sql.js';

const EVENT = 'partner, sequence::float8 AS sequence, id, type, payload, created_at';

/** The columns of a list of refs, for `unnest`. */
const refColumns = (refs: readonly DeliveryRef[]) => [
  refs.map((r) => r.partner),
  refs.map((r) => r.sequence),
  refs.map((r) => r.lease),
];

/** Matches `cashback_outbox o` with the refs `unnest($1, $2, $3) AS c`, leases still held. */
const HELD = `o.partner = c.partner AND o.sequence = c.sequence AND o.lease = c.lease
  AND o.delivery = 'pending'`;

/**
 * The outbox's delivery state over SQL. A claim is one statement: it picks each partner's
 * lowest due pending events `FOR UPDATE SKIP LOCKED` (rows another claim is taking are skipped,
 * not waited for) and moves them to the lease's end; every record is one statement that only
 * touches rows whose lease is still the caller's.
 * @param db - the driver (one statement at a time)
 * @returns the repository
 */
export function deliveries(db: SqlClient): DeliveryRepository {
  return {
    claim: async (query) => {
      if (query.partners.length === 0) return [];
      // Per partner (LATERAL), its lowest due sequences along the partial index; then the
      // lowest sequences of all: one busy partner does not hold back the others' events.
      const rows = await db.query(
        `WITH due AS (
           SELECT d.partner, d.sequence
           FROM unnest($1::text[]) AS p(partner),
           LATERAL (
             SELECT o.partner, o.sequence FROM cashback_outbox o
             WHERE o.partner = p.partner AND o.delivery = 'pending' AND o.next_attempt_at <= $2
             ORDER BY o.sequence
             LIMIT $5
             FOR UPDATE SKIP LOCKED
           ) d
           ORDER BY d.sequence, d.partner
           LIMIT $5
         )
         UPDATE cashback_outbox o SET next_attempt_at = $3, lease = $4, attempts = o.attempts + 1
         FROM due WHERE o.partner = due.partner AND o.sequence = due.sequence
         RETURNING o.partner, o.sequence::float8 AS sequence, o.id, o.type, o.payload,
           o.created_at, o.attempts`,
        [[...new Set(query.partners)], query.now, query.leaseUntil, query.lease, query.limit],
      );
      return rows
        .map((row: SqlRow) => ({
          ...outboxEvent(row),
          partner: row.partner as string,
          lease: query.lease,
          attempt: Number(row.attempts),
        }))
        .sort((a, b) => a.sequence - b.sequence || (a.partner < b.partner ? -1 : 1));
    },
    delivered: async (claims, now) => {
      if (claims.length === 0) return 0;
      const rows = await db.query(
        `UPDATE cashback_outbox o SET delivery = 'delivered', lease = NULL, last_error = NULL,
           finished_at = $4
         FROM unnest($1::text[], $2::bigint[], $3::text[]) AS c(partner, sequence, lease)
         WHERE ${HELD} RETURNING 1`,
        [...refColumns(claims), now],
      );
      return rows.length;
    },
    retry: async (ref, outcome) => {
      const rows = await db.query(
        `UPDATE cashback_outbox o SET next_attempt_at = $4, lease = NULL, last_error = $5
         FROM unnest($1::text[], $2::bigint[], $3::text[]) AS c(partner, sequence, lease)
         WHERE ${HELD} RETURNING 1`,
        [...refColumns([ref]), outcome.nextAttemptAt, outcome.error],
      );
      return rows.length > 0;
    },
    deadLetter: async (ref, outcome) => {
      const rows = await db.query(
        `UPDATE cashback_outbox o SET delivery = 'dead', lease = NULL, last_error = $5,
           finished_at = $4
         FROM unnest($1::text[], $2::bigint[], $3::text[]) AS c(partner, sequence, lease)
         WHERE ${HELD} RETURNING 1`,
        [...refColumns([ref]), outcome.now, outcome.error],
      );
      return rows.length > 0;
    },
    release: async (claims, now) => {
      if (claims.length === 0) return;
      await db.query(
        `UPDATE cashback_outbox o SET next_attempt_at = $4, lease = NULL, attempts = o.attempts - 1
         FROM unnest($1::text[], $2::bigint[], $3::text[]) AS c(partner, sequence, lease)
         WHERE ${HELD}`,
        [...refColumns(claims), now],
      );
    },
    deadLetters: async (query) => {
      const rows = await db.query(
        `SELECT ${EVENT}, attempts, last_error, finished_at::float8 AS finished_at
         FROM cashback_outbox
         WHERE delivery = 'dead' AND ($1::text IS NULL OR partner = $1)
         ORDER BY partner, sequence LIMIT $2`,
        [query.partner ?? null, query.limit],
      );
      return rows.map((row) => ({
        ...outboxEvent(row),
        partner: row.partner as string,
        attempts: Number(row.attempts),
        error: (row.last_error as string | null) ?? '',
        dead_at: Number(row.finished_at),
      }));
    },
    redeliver: async (query) => {
      const rows = await db.query(
        `UPDATE cashback_outbox SET delivery = 'pending', attempts = 0, next_attempt_at = $3,
           last_error = NULL, finished_at = NULL
         WHERE delivery = 'dead' AND ($1::text IS NULL OR partner = $1)
           AND ($2::text[] IS NULL OR id = ANY($2::text[]))
         RETURNING id`,
        [query.partner ?? null, query.ids === undefined ? null : [...query.ids], query.now],
      );
      return rows.map((row) => row.id as string);
    },
  };
}
