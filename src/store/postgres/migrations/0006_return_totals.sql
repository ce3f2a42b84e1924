-- cashback-engine schema, version 6: what each transaction has had returned, as running totals
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
