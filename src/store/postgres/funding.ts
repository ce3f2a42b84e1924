import { checkFundingChanges, checkFundingRanges, checkFundingRecount } from '../fundingInput.js';
import { requirePartner } from '../requirePartner.js';
import type { FundingRepository } from '../Store.js';
import type { SqlClient } from './sql.js';

/** What a funding range and change name: an offer's budget, or a customer's cap. */
interface Scope {
  readonly offer_id: number;
  readonly customer_id: string | null;
}

/**
 * The key columns of a scope's rows: `''` for the partner and customer of a budget (every partner
 * shares it; partner and customer ids are never empty, so no cap has that key).
 */
function scopeColumns(partner: string, scopes: readonly Scope[]) {
  return {
    partners: scopes.map((s) => (s.customer_id === null ? '' : partner)),
    customers: scopes.map((s) => s.customer_id ?? ''),
    offers: scopes.map((s) => s.offer_id),
  };
}

/**
 * Creates the scope rows not stored yet and locks them all until the unit ends, in one order
 * (the "C" collation, as `lockRows.ts`), so that units holding overlapping scopes wait for each
 * other instead of deadlocking. The no-op update is what locks a stored row (as `FOR UPDATE`
 * would) in the same statement that creates a missing one, in input order.
 */
const LOCK_SCOPES = `INSERT INTO cashback_funding_scopes AS s (partner, customer_id, offer_id)
  SELECT u.partner, u.customer_id, u.offer_id
  FROM unnest($1::text[], $2::text[], $3::bigint[]) AS u(partner, customer_id, offer_id)
  GROUP BY 1, 2, 3
  ORDER BY u.partner COLLATE "C", u.customer_id COLLATE "C", u.offer_id
  ON CONFLICT (partner, customer_id, offer_id) DO UPDATE SET offer_id = EXCLUDED.offer_id`;

/**
 * The totals of the ranges, in order: one aggregate per range over the primary key. It must run
 * as a statement of its own, after the locks: under READ COMMITTED a statement reads the
 * snapshot taken when it starts, so one that waited for a lock would miss the adds of the unit it
 * waited for.
 */
const TOTALS = `SELECT coalesce(d.amount, 0)::text AS amount, coalesce(d.count, 0)::float8 AS count
  FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[]) WITH ORDINALITY
    AS r(partner, customer_id, offer_id, from_day, to_day, n),
  LATERAL (
    SELECT sum(amount) AS amount, sum(count) AS count FROM cashback_funding_days
    WHERE partner = r.partner AND customer_id = r.customer_id AND offer_id = r.offer_id
      AND day BETWEEN r.from_day AND r.to_day
  ) AS d
  ORDER BY r.n`;

/** The changes of a call, summed per scope and day. */
const CHANGES = `SELECT u.partner, u.customer_id, u.offer_id, u.day, sum(u.amount) AS amount,
      sum(u.count) AS count
    FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::numeric[], $6::bigint[])
      AS u(partner, customer_id, offer_id, day, amount, count)
    GROUP BY 1, 2, 3, 4`;

/** The upsert of summed changes into their days, adding to each row's latest version. */
const UPSERT_DAYS = `INSERT INTO cashback_funding_days AS d (partner, customer_id, offer_id, day, amount, count)
  SELECT c.partner, c.customer_id, c.offer_id, c.day, c.amount, c.count`;
const ON_DAY = `ORDER BY c.partner COLLATE "C", c.customer_id COLLATE "C", c.offer_id, c.day COLLATE "C"
  ON CONFLICT (partner, customer_id, offer_id, day)
    DO UPDATE SET amount = d.amount + EXCLUDED.amount, count = d.count + EXCLUDED.count`;

/**
 * Adds the changes, summed per scope and day, in one statement: `held` locks the scopes as
 * `LOCK_SCOPES` does, and a day row is written only once its scope's row is held (it joins
 * `held`). An upsert's `DO UPDATE` adds to the row's latest version, so concurrent adds never
 * lose one another's.
 */
const ADD = `WITH changes AS (${CHANGES}), held AS (
    INSERT INTO cashback_funding_scopes AS s (partner, customer_id, offer_id)
    SELECT c.partner, c.customer_id, c.offer_id FROM changes c
    GROUP BY 1, 2, 3
    ORDER BY c.partner COLLATE "C", c.customer_id COLLATE "C", c.offer_id
    ON CONFLICT (partner, customer_id, offer_id) DO UPDATE SET offer_id = EXCLUDED.offer_id
    RETURNING s.partner, s.customer_id, s.offer_id
  )
  ${UPSERT_DAYS}
  FROM changes c JOIN held h
    ON h.partner = c.partner AND h.customer_id = c.customer_id AND h.offer_id = c.offer_id
  ${ON_DAY}`;

/** `ADD` for a unit that already holds every scope it changes: the days alone. */
const ADD_HELD = `WITH changes AS (${CHANGES})
  ${UPSERT_DAYS}
  FROM changes c
  ${ON_DAY}`;

/**
 * Payments above 0 of the offers of `$1` (budgets) or `$2` (caps), with their transaction's day:
 * each counts its current cashback and one payment, the counting rule of `model/countedChange.ts`
 * in SQL, held to it by the conformance test "a recount counts each payment as the counting rule
 * does".
 */
const PAID = `SELECT p.partner, p.customer_id, p.offer_id, t.day, p.cashback_amount AS amount
  FROM cashback_payments p
  JOIN cashback_transactions t ON t.partner = p.partner AND t.transaction_id = p.transaction_id
  WHERE p.offer_id = ANY($1::bigint[] || $2::bigint[]) AND p.cashback_amount > 0`;

/** The scopes a recount replaces: `$1`'s budgets and `$2`'s caps of every partner. */
const RECOUNTED = `(partner = '' AND offer_id = ANY($1::bigint[]))
  OR (partner <> '' AND offer_id = ANY($2::bigint[]))`;

/**
 * A recount's statements (docs/postgres.md, Funding counters): its scopes created and locked (as
 * `LOCK_SCOPES`) first, so that a unit holding one of them ends before the days are read; the
 * payments locked against writes until the unit ends; then the old days removed; then the days
 * its payments add up to written.
 */
const RECOUNT = [
  `INSERT INTO cashback_funding_scopes AS s (partner, customer_id, offer_id)
   SELECT * FROM (
     SELECT ''::text, ''::text, offer_id FROM unnest($1::bigint[]) AS offer_id
     UNION SELECT partner, customer_id, offer_id FROM (${PAID}) AS paid
       WHERE offer_id = ANY($2::bigint[])
     UNION SELECT partner, customer_id, offer_id FROM cashback_funding_scopes WHERE ${RECOUNTED}
   ) AS u(partner, customer_id, offer_id)
   ORDER BY u.partner COLLATE "C", u.customer_id COLLATE "C", u.offer_id
   ON CONFLICT (partner, customer_id, offer_id) DO UPDATE SET offer_id = EXCLUDED.offer_id`,
  // Payments stored by units still running are waited for, and units that pay after this point
  // wait until the recount commits (then find the offers' revision moved, and decide again).
  'LOCK TABLE cashback_payments IN SHARE MODE',
  `DELETE FROM cashback_funding_days WHERE ${RECOUNTED}`,
  `INSERT INTO cashback_funding_days (partner, customer_id, offer_id, day, amount, count)
   SELECT '', '', offer_id, day, sum(amount), count(*) FROM (${PAID}) AS paid
     WHERE offer_id = ANY($1::bigint[]) GROUP BY offer_id, day
   UNION ALL
   SELECT partner, customer_id, offer_id, day, sum(amount), count(*) FROM (${PAID}) AS paid
     WHERE offer_id = ANY($2::bigint[]) GROUP BY partner, customer_id, offer_id, day`,
];

/**
 * Funding counters (docs/postgres.md, Funding counters). Inside a unit, `hold` locks the scopes
 * then sums their days: two statements; outside one it only sums. `add` is one statement, which
 * holds the scopes it changes until the unit (or the statement, outside one) ends.
 * @param db - a unit's connection, or the driver
 * @param inUnit - whether `db` is a unit's connection
 * @returns the repository
 */
export function funding(db: SqlClient, inUnit: boolean): FundingRepository {
  // The scopes this unit holds (it holds them until it ends): an add of those alone need not
  // lock them again.
  const held = new Set<string>();
  const scopeKey = (partner: string, customer: string, offer: number) =>
    `${partner}\u0000${customer}\u0000${offer}`;
  return {
    hold: async (partner, ranges) => {
      requirePartner(partner);
      checkFundingRanges(ranges);
      if (ranges.length === 0) return [];
      const { partners, customers, offers } = scopeColumns(partner, ranges);
      if (inUnit) {
        await db.query(LOCK_SCOPES, [partners, customers, offers]);
        partners.forEach((p, i) => {
          held.add(scopeKey(p, customers[i] as string, offers[i] as number));
        });
      }
      const rows = await db.query(TOTALS, [
        partners,
        customers,
        offers,
        ranges.map((r) => r.from),
        ranges.map((r) => r.to),
      ]);
      return rows.map((r) => ({ amount: r.amount as string, count: r.count as number }));
    },
    add: async (partner, changes) => {
      requirePartner(partner);
      checkFundingChanges(changes);
      if (changes.length === 0) return;
      const { partners, customers, offers } = scopeColumns(partner, changes);
      const allHeld = partners.every((p, i) =>
        held.has(scopeKey(p, customers[i] as string, offers[i] as number)),
      );
      await db.query(allHeld ? ADD_HELD : ADD, [
        partners,
        customers,
        offers,
        changes.map((c) => c.day),
        changes.map((c) => c.amount),
        changes.map((c) => c.count),
      ]);
    },
    recount: async (query) => {
      checkFundingRecount(query);
      if (query.budgets.length === 0 && query.caps.length === 0) return;
      for (const statement of RECOUNT) {
        await db.query(statement, statement.includes('$1') ? [query.budgets, query.caps] : []);
      }
    },
  };
}
