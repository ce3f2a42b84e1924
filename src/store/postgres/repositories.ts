import { customersToHold } from '../insertHold.js';
import type { OutboxEvent } from '../records.js';
import { requirePartner } from '../requirePartner.js';
import type {
  ActivationRepository,
  CustomerRepository,
  OutboxRepository,
  PaymentRepository,
  StoreSession,
  TransactionRepository,
} from '../Store.js';
import {
  type ConfirmationLock,
  confirmationLock,
  confirmations,
  LATE_ON_INSERT,
} from './confirmation.js';
import { funding } from './funding.js';
import { offers, paymentHistory } from './ledger.js';
import { lockRows } from './lockRows.js';
import { paymentChanges } from './paymentChanges.js';
import { countPaymentDays } from './paymentDays.js';
import {
  activationRecord,
  customerRecord,
  orderKey,
  outboxEvent,
  PAYMENT_COLUMNS,
  paymentRecord,
  TRANSACTION_COLUMNS,
  transactionRecord,
} from './records.js';
import { returns } from './returns.js';
import { type IdLookup, rowsByIds } from './rowsByIds.js';
import type { SqlClient } from './sql.js';

const CUSTOMERS: IdLookup = {
  table: 'cashback_customers',
  key: 'customer_id',
  columns: 'customer_id, birthday, gender, country, city',
};
const TRANSACTION_IDS: IdLookup = {
  table: 'cashback_transactions',
  key: 'transaction_id',
  columns: 'transaction_id',
};
const TRANSACTIONS: IdLookup = {
  table: 'cashback_transactions',
  key: 'transaction_id',
  columns: TRANSACTION_COLUMNS,
};

/** Customers: `upsert` takes its row locks in `customer_id` order, as `transactions.insert`. */
function customers(db: SqlClient): CustomerRepository {
  return {
    get: async (partner, ids) => (await rowsByIds(db, CUSTOMERS, partner, ids)).map(customerRecord),
    upsert: async (partner, list) => {
      requirePartner(partner);
      if (list.length === 0) return { added: 0, updated: 0 };
      // xmax = 0 marks a row this statement inserted; a row it updated (one stored before, or
      // inserted by a racing call this one waited for) has the updating transaction in xmax.
      const rows = await db.query(
        `WITH up AS (
           INSERT INTO cashback_customers (partner, customer_id, birthday, gender, country, city)
           SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
             AS u(customer_id, birthday, gender, country, city)
           ORDER BY u.customer_id COLLATE "C"
           ON CONFLICT (partner, customer_id) DO UPDATE SET birthday = EXCLUDED.birthday,
             gender = EXCLUDED.gender, country = EXCLUDED.country, city = EXCLUDED.city
           RETURNING (xmax = 0) AS added
         )
         SELECT (count(*) FILTER (WHERE added))::int AS added, count(*)::int AS total FROM up`,
        [
          partner,
          list.map((c) => c.customer_id),
          list.map((c) => c.birthday),
          list.map((c) => c.gender),
          list.map((c) => c.location.country),
          list.map((c) => c.location.city),
        ],
      );
      const added = rows[0]?.added as number;
      return { added, updated: (rows[0]?.total as number) - added };
    },
  };
}

/**
 * Activations: `add` inserts the pairs not stored yet, in key order (as customers take their row
 * locks), and keeps a stored pair as it is.
 */
function activations(db: SqlClient): ActivationRepository {
  return {
    get: async (partner, query) => {
      requirePartner(partner);
      if (query.customerIds.length === 0 || query.offerIds.length === 0) return [];
      // One probe per customer id, as `rowsByIds` looks ids up, its offers filtered there.
      const rows = await db.query(
        `SELECT a.* FROM unnest($2::text[]) AS u(id), LATERAL (
           SELECT customer_id, offer_id::float8 AS offer_id, date FROM cashback_activations
           WHERE partner = $1 AND customer_id = u.id AND offer_id = ANY($3::bigint[]) OFFSET 0
         ) AS a`,
        [partner, query.customerIds, query.offerIds],
      );
      return rows.map(activationRecord);
    },
    add: async (partner, list) => {
      requirePartner(partner);
      if (list.length === 0) return { added: 0, updated: 0 };
      // A pair stored before, or by a racing call this one waited for, inserts no row.
      const rows = await db.query(
        `WITH up AS (
           INSERT INTO cashback_activations (partner, customer_id, offer_id, date)
           SELECT $1, u.* FROM unnest($2::text[], $3::bigint[], $4::text[])
             AS u(customer_id, offer_id, date)
           ORDER BY u.customer_id COLLATE "C", u.offer_id
           ON CONFLICT (partner, customer_id, offer_id) DO NOTHING
           RETURNING 1
         )
         SELECT count(*)::int AS added FROM up`,
        [
          partner,
          list.map((a) => a.customer_id),
          list.map((a) => a.offer_id),
          list.map((a) => a.date),
        ],
      );
      const added = rows[0]?.added as number;
      return { added, updated: list.length - added };
    },
  };
}

/**
 * Transactions. Inside a unit, `insert` first takes the partner's confirmation lock (shared: the
 * unit may store payments, docs/postgres.md, Confirmation) and locks the customers it holds (the
 * records', or `options.hold`) in `customer_id` order (docs/stores.md, customers held by an
 * insert), then inserts if absent.
 */
function transactions(db: SqlClient, lock: ConfirmationLock | undefined): TransactionRepository {
  return {
    existing: async (partner, ids) =>
      (await rowsByIds(db, TRANSACTION_IDS, partner, ids)).map((r) => r.transaction_id as string),
    get: async (partner, ids) =>
      (await rowsByIds(db, TRANSACTIONS, partner, ids)).map(transactionRecord),
    // In id order: two units inserting overlapping ids wait for each other at the first id they
    // share, never in a circle (they hold no customer in common when neither read history).
    insert: async (partner, list, options) => {
      requirePartner(partner);
      const hold = customersToHold(list, options);
      if (list.length === 0) return [];
      if (lock !== undefined) {
        await lock.share(partner, true);
        if (hold.length > 0) {
          await lockRows(db, { table: 'cashback_customers', key: 'customer_id' }, partner, hold);
        }
      }
      const rows = await db.query(
        `INSERT INTO cashback_transactions (partner, transaction_id, customer_id, source, date, day,
           amount, merchant_key, merchant_id, merchant_name, category_code, description, country, city,
           channel)
         SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
           $7::numeric[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
           $13::text[], $14::text[], $15::text[]) AS u(transaction_id)
         ORDER BY u.transaction_id COLLATE "C"
         ON CONFLICT (partner, transaction_id) DO NOTHING
         RETURNING transaction_id`,
        [
          partner,
          list.map((t) => t.transaction_id),
          list.map((t) => t.customer_id),
          list.map((t) => t.source),
          list.map((t) => t.date),
          list.map((t) => t.day),
          list.map((t) => t.amount),
          list.map((t) => t.merchant_key),
          list.map((t) => t.merchant.id),
          list.map((t) => t.merchant.name),
          list.map((t) => t.merchant.category_code),
          list.map((t) => t.description),
          list.map((t) => t.location?.country ?? null),
          list.map((t) => t.location?.city ?? null),
          list.map((t) => t.channel ?? null),
        ],
      );
      return rows.map((r) => r.transaction_id as string);
    },
    purchases: async (partner, query) => {
      requirePartner(partner);
      // Whole customers (offers scoped to many merchants) read every merchant: their pairs are in it.
      const wholeSet = new Set(query.customers);
      const whole = [...wholeSet];
      const pairs =
        whole.length === 0 ? query.pairs : query.pairs.filter((p) => !wholeSet.has(p.customerId));
      if (pairs.length === 0 && whole.length === 0) return [];
      const rows = await db.query(
        `SELECT t.* FROM unnest($2::text[], $3::text[]) AS p(customer_id, merchant_key),
         LATERAL (
           SELECT ${TRANSACTION_COLUMNS} FROM cashback_transactions t
           WHERE t.partner = $1 AND t.customer_id = p.customer_id
             AND t.merchant_key = p.merchant_key AND t.day >= $4
           OFFSET 0
         ) AS t
         UNION ALL
         SELECT t.* FROM unnest($5::text[]) AS c(customer_id),
         LATERAL (
           SELECT ${TRANSACTION_COLUMNS} FROM cashback_transactions t
           WHERE t.partner = $1 AND t.customer_id = c.customer_id AND t.day >= $4
           OFFSET 0
         ) AS t`,
        [
          partner,
          pairs.map((p) => p.customerId),
          pairs.map((p) => p.merchantKey),
          query.fromDay,
          whole,
        ],
      );
      return rows.map(transactionRecord);
    },
  };
}

/**
 * Payments: the primary key (partner, transaction id) refuses a second payment; `insert` holds
 * the partner's confirmation lock (shared) and marks `late` the payments of days whose
 * confirmation has begun (docs/postgres.md, Confirmation), and adds those above 0 to their days'
 * counts in the same statement. Listings leave out payments at 0 with the predicate of their
 * partial index (`cashback_amount > 0`) and sum the days' counts for `total` (docs/postgres.md,
 * Listings).
 */
function payments(db: SqlClient, lock: ConfirmationLock | undefined): PaymentRepository {
  return {
    ...paymentChanges(db, lock),
    ...paymentHistory(db),
    insert: async (partner, list) => {
      requirePartner(partner);
      if (list.length === 0) return;
      await lock?.share(partner);
      await db.query(
        `WITH stored AS (
           INSERT INTO cashback_payments (partner, transaction_id, customer_id, offer_id,
             cashback_amount, payment_date, country, city, event_id, order_key, offer_revision, late)
           SELECT $1, u.transaction_id, u.customer_id, u.offer_id, u.cashback_amount, u.payment_date,
             u.country, u.city, u.event_id, decode(u.order_key, 'hex'), u.offer_revision,
             ${LATE_ON_INSERT('u.payment_date')}
           FROM unnest($2::text[], $3::text[], $4::bigint[], $5::numeric[], $6::text[], $7::text[],
             $8::text[], $9::text[], $10::text[], $11::integer[])
             AS u(transaction_id, customer_id, offer_id, cashback_amount, payment_date, country,
               city, event_id, order_key, offer_revision)
           RETURNING payment_date, cashback_amount
         )
         ${countPaymentDays(
           `SELECT payment_date, count(*) AS n FROM stored WHERE cashback_amount > 0
            GROUP BY payment_date`,
         )}`,
        [
          partner,
          list.map((p) => p.transaction_id),
          list.map((p) => p.customer_id),
          list.map((p) => p.offer_id),
          list.map((p) => p.cashback_amount),
          list.map((p) => p.payment_date),
          list.map((p) => p.country),
          list.map((p) => p.city),
          list.map((p) => p.event_id),
          list.map((p) => orderKey(p.transaction_id)),
          list.map((p) => p.offer_revision),
        ],
      );
    },
    list: async (partner, query) => {
      requirePartner(partner);
      // One statement: the total (the counts of the range's days, not a count of its payments)
      // and the page read the same snapshot.
      const rows = await db.query(
        `WITH matching AS (
           SELECT coalesce(sum(count), 0)::float8 AS total FROM cashback_payment_days
           WHERE partner = $1 AND payment_date BETWEEN $2 AND $3
         )
         SELECT matching.total, page.* FROM matching LEFT JOIN LATERAL (
           SELECT ${PAYMENT_COLUMNS} FROM cashback_payments
           WHERE partner = $1 AND payment_date BETWEEN $2 AND $3 AND cashback_amount > 0
           ORDER BY payment_date, order_key OFFSET $4 LIMIT $5
         ) AS page ON true`,
        [partner, query.from, query.to, query.offset, query.limit],
      );
      const total = (rows[0]?.total as number | undefined) ?? 0;
      const items = rows.filter((r) => r.transaction_id !== null).map(paymentRecord);
      return { total, items };
    },
  };
}

/**
 * The outbox. `add` is one statement: it moves the partner's counter row by the number of events
 * and numbers them from there. The row stays locked until the unit commits, so the next unit
 * adding events for the partner waits, and sequences follow commit order.
 */
function outbox(db: SqlClient): OutboxRepository {
  return {
    add: async (partner, events) => {
      requirePartner(partner);
      if (events.length === 0) return;
      // One event (a confirmation's, of up to 1,000 payments) binds as plain texts: as an array
      // element, its payload would be escaped character by character on the way in and out.
      const one = events.length === 1;
      const column = (f: (e: OutboxEvent) => string) =>
        one ? f(events[0] as OutboxEvent) : events.map(f);
      await db.query(
        `WITH counter AS (
           INSERT INTO cashback_outbox_counters AS c (partner, last_sequence) VALUES ($1, $2)
           ON CONFLICT (partner) DO UPDATE SET last_sequence = c.last_sequence + $2
           RETURNING last_sequence - $2 AS first
         )
         INSERT INTO cashback_outbox (partner, sequence, id, type, payload, created_at)
         SELECT $1, counter.first + e.n, e.id, e.type, e.payload, e.created_at
         FROM counter, ${
           one
             ? '(VALUES ($3::text, $4::text, $5::text, $6::text, 1)) AS e(id, type, payload, created_at, n)'
             : `unnest($3::text[], $4::text[], $5::text[], $6::text[])
           WITH ORDINALITY AS e(id, type, payload, created_at, n)`
         }`,
        [
          partner,
          events.length,
          column((e) => e.id),
          column((e) => e.type),
          column((e) => JSON.stringify(e.payload)),
          column((e) => e.created_at),
        ],
      );
    },
    list: async (partner, query) => {
      requirePartner(partner);
      const rows = await db.query(
        `SELECT sequence::float8 AS sequence, id, type, payload, created_at FROM cashback_outbox
         WHERE partner = $1 AND sequence > $2 ORDER BY sequence LIMIT $3`,
        [partner, query.after ?? 0, query.limit],
      );
      return rows.map(outboxEvent);
    },
  };
}

/**
 * The repositories over one query interface.
 * @param db - a connection inside a unit of work, or the driver (one statement at a time)
 * @param inUnit - whether `db` is a unit's connection (then `transactions.insert` and
 *   `returns.hold` take the partner's confirmation lock, `transactions.insert` locks customers,
 *   `returns.insert` transactions and `funding.hold` the counters it reads)
 * @returns the repositories
 */
export function repositories(db: SqlClient, inUnit: boolean): StoreSession {
  const lock = inUnit ? confirmationLock(db) : undefined;
  return {
    offers: offers(db, inUnit),
    customers: customers(db),
    activations: activations(db),
    transactions: transactions(db, lock),
    payments: payments(db, lock),
    outbox: outbox(db),
    returns: returns(db, lock),
    funding: funding(db, inUnit),
    confirmations: confirmations(db),
  };
}
