-- Calls a key may have in flight at once (docs/accounts.md, "Concurrency"); NULL = the gateway's default.
ALTER TABLE api_keys ADD COLUMN max_concurrent BIGINT;
