-- cashback-engine schema, version 3: returns (docs/concepts.md, Returns).
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
-- others, and the listing's `cashback_amount > 0` matches its predicate.
CREATE INDEX cashback_payments_listed
  ON cashback_payments (partner, payment_date, order_key) WHERE cashback_amount > 0;
DROP INDEX cashback_payments_listing;
