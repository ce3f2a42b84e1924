-- cashback-engine schema, version 8: where a transaction was paid (docs/concepts.md, Scopes:
-- channels), `online` or `in_store` as validated by the engine; NULL when it was not sent (and for
-- every transaction stored before). A nullable column without a default: no table rewrite.
ALTER TABLE cashback_transactions ADD COLUMN channel text;
