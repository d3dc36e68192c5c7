-- A key's previous secret after a rotation (docs/operations/key-rotation.md): its hash (SHA-256 hex, like key_hash),
-- its display prefix, and until when it is still accepted. NULL when the key was never rotated. The hash is indexed
-- because authentication looks a secret up by either hash.

ALTER TABLE api_keys ADD COLUMN previous_key_hash CHAR(64);
ALTER TABLE api_keys ADD COLUMN previous_key_prefix VARCHAR(16);
ALTER TABLE api_keys ADD COLUMN previous_key_expires_at_ms BIGINT;
CREATE INDEX api_keys_previous_key_hash ON api_keys (previous_key_hash);
