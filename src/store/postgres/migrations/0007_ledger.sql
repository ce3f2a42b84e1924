-- cashback-engine schema, version 7: the payment ledger (docs/postgres.md, The payment ledger).
-- Every revision of every offer is kept, never rewritten; a payment records the revision that
-- decided it, what its clawbacks took and the `cashback.confirmed` event that confirmed it; a
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

-- What `confirmations.take` reads: the payments due and not confirmed yet, by day.
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
