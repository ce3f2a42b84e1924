-- cashback-engine schema, version 2: the outbox's delivery state (docs/webhooks.md).
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
