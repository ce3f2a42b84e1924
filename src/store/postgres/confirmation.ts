import { compareText } from '../../model/compareText.js';
import type { ConfirmationRepository } from '../Store.js';
import { PAYMENT_COLUMNS, paymentRecord } from './records.js';
import type { SqlClient, SqlRow } from './sql.js';

// Confirmation by day in SQL (docs/postgres.md, Confirmation). A partner's frontier says through
// which payment day its confirmation has begun. Moving it (opening days) waits for every unit
// that stores or changes the partner's payments, under an advisory lock those units hold shared:
// so the payments of an opened day that are not `late` are all committed, and a day is confirmed
// by reading them in `order_key` order, a page per event, without writing a row per payment. A
// payment stored for an opened day is `late` and gets its event in its own row, as before.

/** The advisory lock of a partner's confirmation: shared by writers, exclusive to open days. */
const LOCK_KEY = `hashtextextended('cashback-engine confirm ' || $1, 0)`;

/**
 * A unit's hold of partners' confirmation locks (shared): taken once per partner, as the first
 * lock of a unit that stores payments (`transactions.insert`) or changes them (`returns.hold`),
 * and by `payments.insert` and `payments.adjust` if the unit has not taken it yet.
 */
export interface ConfirmationLock {
  /**
   * Takes the partner's lock shared until the unit ends, unless the unit holds it already; with
   * `offers`, the offers' lock too (`OFFERS_LOCK`), in the same statement.
   */
  share(partner: string, offers?: boolean): Promise<void>;
}

/**
 * The advisory lock of the offers: shared by a unit that stores transactions, exclusive to a
 * reload (`offers.list` in a unit, and `offers.upsert`). A reload waits for those units to end, so the revision a unit
 * checks last cannot move before it commits (docs/stores.md, Customers held by an insert).
 */
export const OFFERS_LOCK = `hashtextextended('cashback-engine offers', 0)`;

/**
 * The confirmation locks of one unit of work.
 * @param db - the unit's connection
 * @returns the unit's hold
 */
export function confirmationLock(db: SqlClient): ConfirmationLock {
  const held = new Set<string>();
  let offersHeld = false;
  return {
    share: async (partner, offers = false) => {
      const locks: string[] = [];
      // The offers' lock first, as a reload takes it before anything else.
      if (offers && !offersHeld) locks.push(`pg_advisory_xact_lock_shared(${OFFERS_LOCK})`);
      const partnerLock = !held.has(partner);
      if (partnerLock) locks.push(`pg_advisory_xact_lock_shared(${LOCK_KEY})`);
      if (locks.length === 0) return;
      await db.query(`SELECT ${locks.join(', ')}`, partnerLock ? [partner] : []);
      held.add(partner);
      if (offers) offersHeld = true;
    },
  };
}

/** The `late` value of a payment of partner `$1` stored for day `payment_date` now. */
export const LATE_ON_INSERT = (day: string): string =>
  `${day} <= coalesce((SELECT through FROM cashback_confirmation_frontier WHERE partner = $1), '')`;

/**
 * The event that confirmed the payment of row alias `t` (`NULL` while none did): a late payment's own
 * `confirmed_event`; for another, the first event of its day read in order whose last payment is
 * at or after it. A payment above 0 now was above 0 when its day was read (returns only lower a
 * cashback), so an event past it holds it.
 */
export const confirmedEvent = (t: string): string => `CASE WHEN ${t}.late THEN ${t}.confirmed_event
  WHEN ${t}.cashback_amount > 0 THEN (SELECT e.event_id FROM cashback_confirmation_events e
    WHERE e.partner = ${t}.partner AND e.payment_date = ${t}.payment_date
      AND e.last_key >= ${t}.order_key
    ORDER BY e.last_key LIMIT 1) END`;

/**
 * Locks (`FOR SHARE`) the rows of the days being confirmed of the partner's payments of these
 * transaction ids, so that a change waits for a unit reading one of those days to commit, and
 * then sees what it confirmed.
 */
export const LOCK_DAYS_OF_PAYMENTS = `SELECT 1 FROM cashback_confirmation_days d
  WHERE (d.partner, d.payment_date) IN (SELECT p.partner, p.payment_date FROM cashback_payments p
    WHERE p.partner = $1 AND p.transaction_id = ANY ($2::text[]))
  ORDER BY d.payment_date FOR SHARE OF d`;

/** Partners with payments above 0 due by `$1` on days their frontier has not reached. */
const TO_OPEN = `WITH RECURSIVE partners AS (
    (SELECT partner FROM cashback_payments WHERE cashback_amount > 0 ORDER BY partner LIMIT 1)
    UNION ALL
    SELECT (SELECT p.partner FROM cashback_payments p
      WHERE p.cashback_amount > 0 AND p.partner > partners.partner ORDER BY p.partner LIMIT 1)
    FROM partners WHERE partners.partner IS NOT NULL
  )
  SELECT p.partner FROM partners p
  LEFT JOIN cashback_confirmation_frontier f ON f.partner = p.partner
  WHERE p.partner IS NOT NULL AND EXISTS (SELECT 1 FROM cashback_payments x
    WHERE x.partner = p.partner AND x.cashback_amount > 0
      AND x.payment_date > coalesce(f.through, '') AND x.payment_date <= $1)
  ORDER BY p.partner`;

/**
 * Opens the days of partner `$1` after its frontier through `$2`: a row for each day with
 * payments above 0 (one index probe a day), then the frontier moved.
 */
const OPEN_DAYS = `WITH RECURSIVE f AS (
    SELECT coalesce((SELECT through FROM cashback_confirmation_frontier WHERE partner = $1), '')
      AS through
  ), days AS (
    (SELECT payment_date FROM cashback_payments, f WHERE partner = $1 AND cashback_amount > 0
      AND payment_date > f.through AND payment_date <= $2 ORDER BY payment_date LIMIT 1)
    UNION ALL
    SELECT (SELECT p.payment_date FROM cashback_payments p WHERE p.partner = $1
      AND p.cashback_amount > 0 AND p.payment_date > days.payment_date AND p.payment_date <= $2
      ORDER BY p.payment_date LIMIT 1)
    FROM days WHERE days.payment_date IS NOT NULL
  ), opened AS (
    INSERT INTO cashback_confirmation_days (partner, payment_date)
    SELECT $1, payment_date FROM days WHERE payment_date IS NOT NULL
    ON CONFLICT DO NOTHING
  )
  INSERT INTO cashback_confirmation_frontier AS c (partner, through) VALUES ($1, $2)
  ON CONFLICT (partner) DO UPDATE SET through = greatest(c.through, EXCLUDED.through)`;

/**
 * What to confirm next through `$1`: the first day being confirmed, its row locked (days another
 * unit is reading are skipped, never waited for), and whether a day with late payments due and
 * not confirmed yet comes before it (not locked: `TAKE_LATE` locks what it takes).
 */
const PICK = `WITH day AS (
    SELECT partner, payment_date, encode(after, 'hex') AS after FROM cashback_confirmation_days
    WHERE payment_date <= $1 ORDER BY payment_date, partner LIMIT 1
    FOR NO KEY UPDATE SKIP LOCKED
  ), late AS (
    SELECT payment_date, partner FROM cashback_payments
    WHERE late AND confirmed_event IS NULL AND cashback_amount > 0 AND payment_date <= $1
    ORDER BY payment_date, partner, order_key LIMIT 1
  )
  SELECT day.partner, day.payment_date, day.after,
    late.payment_date IS NOT NULL AND (day.partner IS NULL
      OR (late.payment_date, late.partner) < (day.payment_date, day.partner)) AS late_first
  FROM (SELECT 1) AS one LEFT JOIN day ON true LEFT JOIN late ON true`;

/**
 * The next page of day `$2` of partner `$1` (payments not late, above 0, after `$3`, at most
 * `$4`), in one statement with what it changes: the event `$5` recorded with the page's last
 * payment, and the day's cursor moved there, or the day closed when the page is its last. (Its
 * row is locked by `PICK`, so no other unit reads the day meanwhile.)
 */
const DAY_PAGE = `WITH page AS (
    SELECT ${PAYMENT_COLUMNS}, order_key FROM cashback_payments
    WHERE partner = $1 AND payment_date = $2 AND cashback_amount > 0 AND NOT late
      AND ($3::text IS NULL OR order_key > decode($3, 'hex'))
    ORDER BY order_key LIMIT $4
  ), size AS (
    SELECT count(*) AS n, (SELECT order_key FROM page ORDER BY order_key DESC LIMIT 1) AS last
    FROM page
  ), kept AS (
    INSERT INTO cashback_confirmation_events (partner, payment_date, last_key, event_id)
    SELECT $1, $2, last, $5 FROM size WHERE n > 0
  ), closed AS (
    DELETE FROM cashback_confirmation_days
    WHERE partner = $1 AND payment_date = $2 AND (SELECT n FROM size) < $4
  ), moved AS (
    UPDATE cashback_confirmation_days SET after = (SELECT last FROM size)
    WHERE partner = $1 AND payment_date = $2 AND (SELECT n FROM size) = $4
  )
  SELECT ${PAYMENT_COLUMNS} FROM page`;

/**
 * Late payments: the first partner and day with late payments due
 * by `$1` and not confirmed yet, up to `$2` of them locked (`SKIP LOCKED`), marked with event
 * `$3`. The day and partner are compared as one row with a scalar subquery, so that both reach
 * the index `cashback_payments_late` as parameters, and the update finds its rows by address.
 */
const TAKE_LATE = `WITH pick AS (
    SELECT partner, payment_date FROM cashback_payments
    WHERE late AND confirmed_event IS NULL AND cashback_amount > 0 AND payment_date <= $1
    ORDER BY payment_date, partner, order_key
    LIMIT 1 FOR UPDATE SKIP LOCKED
  ), due AS (
    SELECT p.ctid FROM cashback_payments p
    WHERE (p.payment_date, p.partner) = (SELECT payment_date, partner FROM pick)
      AND p.late AND p.confirmed_event IS NULL AND p.cashback_amount > 0
    ORDER BY p.payment_date, p.partner, p.order_key LIMIT $2
    FOR UPDATE OF p SKIP LOCKED
  )
  UPDATE cashback_payments AS p SET confirmed_event = $3
  WHERE p.ctid = ANY (ARRAY(SELECT ctid FROM due))
  RETURNING p.partner, ${PAYMENT_COLUMNS.split(', ')
    .map((c) => `p.${c}`)
    .join(', ')}`;

/** The taken payments as `take` answers them: by transaction id. */
function taken(rows: readonly SqlRow[]) {
  const first = rows[0] as SqlRow;
  return {
    partner: first.partner as string,
    payment_date: first.payment_date as string,
    payments: rows
      .map(paymentRecord)
      .sort((a, b) => compareText(a.transaction_id, b.transaction_id)),
  };
}

/**
 * Confirmations inside a unit of work. `take` takes the oldest of the first day being confirmed
 * and the first day with late payments: a day gives the next page of its payments after its
 * cursor (the event recorded, the cursor moved or the day closed, in the same statement); late
 * payments are marked with the event. When neither is due, it opens the days due of partners
 * whose frontier is behind (each under the partner's exclusive lock, in partner order: it waits
 * for the units storing or changing that partner's payments) and looks again; so days open once
 * the days opened before are confirmed, and a run of takes opens at its first take and its last.
 * @param db - a unit's connection
 * @returns the repository
 */
export function confirmations(db: SqlClient): ConfirmationRepository {
  return {
    take: async ({ through, limit, event_id }) => {
      let opened = false;
      for (;;) {
        const next = (await db.query(PICK, [through]))[0] as SqlRow;
        if (next.late_first === true) {
          const rows = await db.query(TAKE_LATE, [through, limit, event_id]);
          if (rows.length > 0) return taken(rows);
        }
        if (next.partner !== null) {
          const { partner } = next;
          const page = await db.query(DAY_PAGE, [
            partner,
            next.payment_date,
            next.after,
            limit,
            event_id,
          ]);
          if (page.length > 0) return taken(page.map((r) => ({ ...r, partner })));
          continue; // the day was closed: every payment of it is in an event
        }
        if (opened) return undefined;
        opened = true;
        for (const row of await db.query(TO_OPEN, [through])) {
          await db.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`, [row.partner]);
          await db.query(OPEN_DAYS, [row.partner, through]);
        }
      }
    },
  };
}
