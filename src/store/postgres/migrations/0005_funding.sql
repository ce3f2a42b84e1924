-- cashback-engine schema, version 5: funding counters, what budgets and caps have spent
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
