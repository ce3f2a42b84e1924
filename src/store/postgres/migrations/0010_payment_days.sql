-- cashback-engine schema, version 10: how many payments above 0 each partner has per payment day
-- (docs/postgres.md, Listings). A listing's `total` sums the days of its range, one row a day,
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
