-- cashback-engine schema, version 4: activations of offers by customers (docs/stores.md).
-- One row per partner, customer and offer; activating again keeps the row. `date` is the
-- wall-clock date-time a transaction's is compared with, in a transaction's stored form.

CREATE TABLE cashback_activations (
  partner text COLLATE "C" NOT NULL,
  customer_id text COLLATE "C" NOT NULL,
  offer_id bigint NOT NULL,
  date text COLLATE "C" NOT NULL,
  PRIMARY KEY (partner, customer_id, offer_id)
);
