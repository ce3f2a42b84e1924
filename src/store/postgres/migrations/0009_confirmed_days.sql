-- cashback-engine schema, version 9: confirmation by day (docs/postgres.md, Confirmation).
-- `confirmations.take` no longer writes a payment row per payment it confirms. A partner's
-- frontier says through which payment day confirmation has begun; a payment stored for a day
-- before that frontier moved is confirmed by reading its day in order (a cursor per day being
-- confirmed, and one row per event with the last payment it holds); a payment stored for a day on
-- or before the frontier (a late purchase, `late`) is marked with its event, as before. Payments
-- stored by earlier versions count as late, whatever their day: their `confirmed_event` says
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

-- The days being confirmed: `after` is the order_key of the last payment confirmed (NULL before
-- the first event). A day's row is removed once every payment of it is in an event.
CREATE TABLE cashback_confirmation_days (
  partner text COLLATE "C" NOT NULL,
  payment_date text COLLATE "C" NOT NULL,
  after bytea,
  PRIMARY KEY (partner, payment_date)
);
CREATE INDEX cashback_confirmation_days_due ON cashback_confirmation_days (payment_date, partner);

-- One row per `cashback.confirmed` event of a day read in order: it holds that day's payments
-- (not late, above 0) after the previous event's `last_key`, through its own.
CREATE TABLE cashback_confirmation_events (
  partner text COLLATE "C" NOT NULL,
  payment_date text COLLATE "C" NOT NULL,
  last_key bytea NOT NULL,
  event_id text NOT NULL,
  PRIMARY KEY (partner, payment_date, last_key)
);
