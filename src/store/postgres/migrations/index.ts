// Generated from the .sql files of this folder by generate.mjs: do not edit.

/** A schema migration: its version, name and SQL script. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every migration, by ascending version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `-- cashback-engine schema, version 1. See docs/postgres.md.
-- Every key starts with the partner, so the tables can be partitioned (or distributed) by partner.
-- Texts that listings order or compare use COLLATE "C": byte order, never a locale's.
-- Days and date-times are text: they compare as written (docs/stores.md).

CREATE TABLE cashback_offers (
  offer_id bigint PRIMARY KEY,
  record json NOT NULL
);

-- One row: a number that every offers upsert moves (offers.revision()).
CREATE TABLE cashback_offer_revision (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  revision bigint NOT NULL
);
INSERT INTO cashback_offer_revision (singleton, revision) VALUES (true, 0);

CREATE TABLE cashback_customers (
  partner text COLLATE "C" NOT NULL,
  customer_id text COLLATE "C" NOT NULL,
  birthday text COLLATE "C" NOT NULL,
  gender text NOT NULL,
  country text NOT NULL,
  city text NOT NULL,
  PRIMARY KEY (partner, customer_id)
);

-- Uploaded history and accepted submitted transactions: one id space per partner.
CREATE TABLE cashback_transactions (
  partner text COLLATE "C" NOT NULL,
  transaction_id text COLLATE "C" NOT NULL,
  customer_id text COLLATE "C" NOT NULL,
  source text NOT NULL CHECK (source IN ('history', 'transaction')),
  date text COLLATE "C" NOT NULL,
  day text COLLATE "C" NOT NULL,
  amount numeric NOT NULL,
  merchant_key text COLLATE "C" NOT NULL,
  merchant_id text NOT NULL,
  merchant_name text NOT NULL,
  category_code text NOT NULL,
  description text NOT NULL,
  country text,
  city text,
  PRIMARY KEY (partner, transaction_id)
);
-- Lookbacks: a customer's purchases at a merchant from a day on.
CREATE INDEX cashback_transactions_lookback
  ON cashback_transactions (partner, customer_id, merchant_key, day);

CREATE TABLE cashback_payments (
  partner text COLLATE "C" NOT NULL,
  transaction_id text COLLATE "C" NOT NULL,
  customer_id text NOT NULL,
  offer_id bigint NOT NULL,
  cashback_amount numeric NOT NULL,
  payment_date text COLLATE "C" NOT NULL,
  country text NOT NULL,
  city text NOT NULL,
  event_id text NOT NULL,
  -- transaction_id in UTF-16BE: byte order of this is JavaScript's code-unit order, which
  -- COLLATE "C" (code point order) is not above U+FFFF.
  order_key bytea NOT NULL,
  PRIMARY KEY (partner, transaction_id)
);
CREATE INDEX cashback_payments_listing
  ON cashback_payments (partner, payment_date, order_key);

-- The last outbox sequence of each partner. Taking the next ones updates this row, whose lock
-- the unit of work holds until it commits: sequences are handed out in commit order.
CREATE TABLE cashback_outbox_counters (
  partner text COLLATE "C" PRIMARY KEY,
  last_sequence bigint NOT NULL
);

CREATE TABLE cashback_outbox (
  partner text COLLATE "C" NOT NULL,
  sequence bigint NOT NULL,
  id text NOT NULL,
  type text NOT NULL,
  payload text NOT NULL,
  created_at text NOT NULL,
  PRIMARY KEY (partner, sequence)
);
-- Event ids are unique across the store: the id is the webhook-id of every delivery.
CREATE UNIQUE INDEX cashback_outbox_event_id ON cashback_outbox (id);
`,
  },
  {
    version: 2,
    name: 'deliveries',
    sql: `-- cashback-engine schema, version 2: the outbox's delivery state (docs/webhooks.md).
-- Every event is pending, delivered or dead. A pending event is due when next_attempt_at (in
-- milliseconds since the epoch) has come; a claim moves next_attempt_at to its lease's end, so
-- the claim of a dispatcher that crashed comes back by itself. Events already in the outbox
-- are pending: they are delivered once a dispatcher runs.

ALTER TABLE cashback_outbox
  ADD COLUMN delivery text NOT NULL DEFAULT 'pending'
    CHECK (delivery IN ('pending', 'delivered', 'dead')),
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at bigint NOT NULL DEFAULT 0,
  ADD COLUMN lease text,
  ADD COLUMN last_error text,
  ADD COLUMN finished_at bigint;

-- Claims: a partner's pending events in sequence order.
CREATE INDEX cashback_outbox_pending
  ON cashback_outbox (partner, sequence) WHERE delivery = 'pending';
CREATE INDEX cashback_outbox_dead
  ON cashback_outbox (partner, sequence) WHERE delivery = 'dead';
`,
  },
  {
    version: 3,
    name: 'returns',
    sql: `-- cashback-engine schema, version 3: returns (docs/concepts.md, Returns).
-- A return's id is unique per partner among returns: their own id space. Its date and day are
-- text as a transaction's (docs/stores.md); its amount is the amount returned.

CREATE TABLE cashback_returns (
  partner text COLLATE "C" NOT NULL,
  return_id text COLLATE "C" NOT NULL,
  transaction_id text COLLATE "C" NOT NULL,
  date text COLLATE "C" NOT NULL,
  day text COLLATE "C" NOT NULL,
  amount numeric NOT NULL,
  event_id text NOT NULL,
  PRIMARY KEY (partner, return_id)
);
-- What a batch of returns reads: the returns of its transactions.
CREATE INDEX cashback_returns_transaction ON cashback_returns (partner, transaction_id);

-- Listings leave out payments that returns brought to 0: the listing index holds only the
-- others, and the listing's \`cashback_amount > 0\` matches its predicate.
CREATE INDEX cashback_payments_listed
  ON cashback_payments (partner, payment_date, order_key) WHERE cashback_amount > 0;
DROP INDEX cashback_payments_listing;
`,
  },
  {
    version: 4,
    name: 'activations',
    sql: `-- cashback-engine schema, version 4: activations of offers by customers (docs/stores.md).
-- One row per partner, customer and offer; activating again keeps the row. \`date\` is the
-- wall-clock date-time a transaction's is compared with, in a transaction's stored form.

CREATE TABLE cashback_activations (
  partner text COLLATE "C" NOT NULL,
  customer_id text COLLATE "C" NOT NULL,
  offer_id bigint NOT NULL,
  date text COLLATE "C" NOT NULL,
  PRIMARY KEY (partner, customer_id, offer_id)
);
`,
  },
  {
    version: 5,
    name: 'funding',
    sql: `-- cashback-engine schema, version 5: funding counters, what budgets and caps have spent
-- (docs/postgres.md, Funding counters). A scope is an offer's budget, shared by every partner
-- (partner and customer_id ''), or a cap of one partner's customer for an offer (partner and
-- customer ids are never empty). Its row is what units of work lock before they read or change
-- the scope's days, so that a scope never written yet can be held too. Days are text as a
-- transaction's (docs/stores.md).

CREATE TABLE cashback_funding_scopes (
  partner text COLLATE "C" NOT NULL,
  customer_id text COLLATE "C" NOT NULL,
  offer_id bigint NOT NULL,
  PRIMARY KEY (partner, customer_id, offer_id)
);

CREATE TABLE cashback_funding_days (
  partner text COLLATE "C" NOT NULL,
  customer_id text COLLATE "C" NOT NULL,
  offer_id bigint NOT NULL,
  day text COLLATE "C" NOT NULL,
  amount numeric NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (partner, customer_id, offer_id, day)
);
`,
  },
  {
    version: 6,
    name: 'return_totals',
    sql: `-- cashback-engine schema, version 6: what each transaction has had returned, as running totals
-- that a return insert moves in its own statement (docs/postgres.md, Returns), so that deciding a
-- return reads one row whatever the number of returns stored before; and indexes for a recount
-- of an offer's counters, which reads its payments and its scopes by offer (docs/postgres.md,
-- Funding counters).

CREATE TABLE cashback_return_totals (
  partner text COLLATE "C" NOT NULL,
  transaction_id text COLLATE "C" NOT NULL,
  amount numeric NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (partner, transaction_id)
);

INSERT INTO cashback_return_totals (partner, transaction_id, amount, count)
SELECT partner, transaction_id, sum(amount), count(*)
FROM cashback_returns
GROUP BY partner, transaction_id;

CREATE INDEX cashback_payments_paid_by_offer ON cashback_payments (offer_id)
  WHERE cashback_amount > 0;

CREATE INDEX cashback_funding_scopes_by_offer ON cashback_funding_scopes (offer_id);
`,
  },
  {
    version: 7,
    name: 'ledger',
    sql: `-- cashback-engine schema, version 7: the payment ledger (docs/postgres.md, The payment ledger).
-- Every revision of every offer is kept, never rewritten; a payment records the revision that
-- decided it, what its clawbacks took and the \`cashback.confirmed\` event that confirmed it; a
-- payment's adjustments and clawbacks are appended to its history. Stores of earlier versions come
-- forward with every offer and payment at revision 1, taking effect when this migration ran.

CREATE TABLE cashback_offer_revisions (
  offer_id bigint NOT NULL,
  revision integer NOT NULL,
  record json NOT NULL,
  effective_at text COLLATE "C" NOT NULL,
  PRIMARY KEY (offer_id, revision)
);

ALTER TABLE cashback_offers
  ADD COLUMN revision integer NOT NULL DEFAULT 1,
  ADD COLUMN effective_at text COLLATE "C" NOT NULL
    DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');

INSERT INTO cashback_offer_revisions (offer_id, revision, record, effective_at)
SELECT offer_id, revision, record, effective_at FROM cashback_offers;
ALTER TABLE cashback_offers ALTER COLUMN revision DROP DEFAULT,
  ALTER COLUMN effective_at DROP DEFAULT;

ALTER TABLE cashback_payments
  ADD COLUMN offer_revision integer NOT NULL DEFAULT 1,
  ADD COLUMN clawed_back_amount numeric NOT NULL DEFAULT 0,
  ADD COLUMN confirmed_event text;
ALTER TABLE cashback_payments ALTER COLUMN offer_revision DROP DEFAULT;

-- What \`confirmations.take\` reads: the payments due and not confirmed yet, by day.
CREATE INDEX cashback_payments_due ON cashback_payments (payment_date, partner, order_key)
  WHERE confirmed_event IS NULL AND cashback_amount > 0;

CREATE TABLE cashback_payment_changes (
  partner text COLLATE "C" NOT NULL,
  transaction_id text COLLATE "C" NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  kind text NOT NULL,
  return_id text COLLATE "C" NOT NULL,
  previous_cashback_amount numeric,
  cashback_amount numeric,
  customer_id text,
  offer_id bigint,
  offer_revision integer,
  amount numeric,
  date text COLLATE "C",
  day text COLLATE "C",
  reported_at text COLLATE "C",
  event_id text NOT NULL,
  recorded_at text NOT NULL,
  -- return_id in UTF-16BE, as a payment's order_key: the clawbacks listing's order.
  order_key bytea NOT NULL,
  PRIMARY KEY (partner, transaction_id, seq)
);

-- One clawback per return, and the clawbacks listing by day.
CREATE UNIQUE INDEX cashback_clawbacks_return ON cashback_payment_changes (partner, return_id)
  WHERE kind = 'clawback';
CREATE INDEX cashback_clawbacks_listing ON cashback_payment_changes (partner, day, order_key)
  WHERE kind = 'clawback';
`,
  },
  {
    version: 8,
    name: 'channel',
    sql: `-- cashback-engine schema, version 8: where a transaction was paid (docs/concepts.md, Scopes:
-- channels), \`online\` or \`in_store\` as validated by the engine; NULL when it was not sent (and for
-- every transaction stored before). A nullable column without a default: no table rewrite.
ALTER TABLE cashback_transactions ADD COLUMN channel text;
`,
  },
  {
    version: 9,
    name: 'confirmed_days',
    sql: `-- cashback-engine schema, version 9: confirmation by day (docs/postgres.md, Confirmation).
-- \`confirmations.take\` no longer writes a payment row per payment it confirms. A partner's
-- frontier says through which payment day confirmation has begun; a payment stored for a day
-- before that frontier moved is confirmed by reading its day in order (a cursor per day being
-- confirmed, and one row per event with the last payment it holds); a payment stored for a day on
-- or before the frontier (a late purchase, \`late\`) is marked with its event, as before. Payments
-- stored by earlier versions count as late, whatever their day: their \`confirmed_event\` says
-- whether they are confirmed (a constant default: no table rewrite).

ALTER TABLE cashback_payments ADD COLUMN late boolean NOT NULL DEFAULT true;
ALTER TABLE cashback_payments ALTER COLUMN late SET DEFAULT false;

-- What the late path reads: late payments due and not confirmed yet, by day.
DROP INDEX cashback_payments_due;
CREATE INDEX cashback_payments_late ON cashback_payments (payment_date, partner, order_key)
  WHERE late AND confirmed_event IS NULL AND cashback_amount > 0;

-- Through which payment day each partner's confirmation has begun.
CREATE TABLE cashback_confirmation_frontier (
  partner text COLLATE "C" PRIMARY KEY,
  through text COLLATE "C" NOT NULL
);

-- The days being confirmed: \`after\` is the order_key of the last payment confirmed (NULL before
-- the first event). A day's row is removed once every payment of it is in an event.
CREATE TABLE cashback_confirmation_days (
  partner text COLLATE "C" NOT NULL,
  payment_date text COLLATE "C" NOT NULL,
  after bytea,
  PRIMARY KEY (partner, payment_date)
);
CREATE INDEX cashback_confirmation_days_due ON cashback_confirmation_days (payment_date, partner);

-- One row per \`cashback.confirmed\` event of a day read in order: it holds that day's payments
-- (not late, above 0) after the previous event's \`last_key\`, through its own.
CREATE TABLE cashback_confirmation_events (
  partner text COLLATE "C" NOT NULL,
  payment_date text COLLATE "C" NOT NULL,
  last_key bytea NOT NULL,
  event_id text NOT NULL,
  PRIMARY KEY (partner, payment_date, last_key)
);
`,
  },
  {
    version: 10,
    name: 'payment_days',
    sql: `-- cashback-engine schema, version 10: how many payments above 0 each partner has per payment day
-- (docs/postgres.md, Listings). A listing's \`total\` sums the days of its range, one row a day,
-- instead of counting every payment in it on every page. Units of work move the counts with the
-- payments they store and cancel, in the same transaction.

CREATE TABLE cashback_payment_days (
  partner text COLLATE "C" NOT NULL,
  payment_date text COLLATE "C" NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (partner, payment_date)
);

INSERT INTO cashback_payment_days (partner, payment_date, count)
SELECT partner, payment_date, count(*) FROM cashback_payments WHERE cashback_amount > 0
GROUP BY partner, payment_date;
`,
  },
];
