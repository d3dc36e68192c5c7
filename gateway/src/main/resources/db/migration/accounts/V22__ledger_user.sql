-- The person or workload each call is billed to (docs/accounts.md, "Usage by user"): the user behind an identity
-- provider's token (docs/identity/caller-tokens.md), or the owner of a platform key that belongs to a user
-- (api_keys.owner_user_id, V19). NULL for the rows before it and for keys that belong to nobody.

ALTER TABLE usage_ledger ADD COLUMN user_id VARCHAR(40);
CREATE INDEX usage_ledger_user ON usage_ledger (user_id, at_ms);
