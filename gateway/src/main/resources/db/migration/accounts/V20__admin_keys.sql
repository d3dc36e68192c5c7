-- Scoped admin keys (docs/identity/admin-keys.md): automation's credentials for the admin API, each with its own
-- permissions (JSON array of wire names such as "keys:write"), an optional role it was made from, and a scope ("org"
-- or "team:X"). Secrets are kept as SHA-256 hex hashes, like api_keys; a rotation keeps the previous one's hash,
-- prefix and the end of its grace. last_used_at_ms is written at most once a minute per key.

CREATE TABLE admin_keys (
    id                          VARCHAR(40)  NOT NULL PRIMARY KEY,   -- adk_<hex>
    name                        VARCHAR(200) NOT NULL,
    key_hash                    CHAR(64)     NOT NULL UNIQUE,
    key_prefix                  VARCHAR(16)  NOT NULL,
    role                        VARCHAR(40),
    permissions_json            TEXT         NOT NULL,
    scope                       VARCHAR(80)  NOT NULL,
    expires_at_ms               BIGINT,
    last_used_at_ms             BIGINT,
    disabled                    SMALLINT     NOT NULL DEFAULT 0,
    previous_key_hash           CHAR(64),
    previous_key_prefix         VARCHAR(16),
    previous_key_expires_at_ms  BIGINT,
    created_by                  VARCHAR(100),
    created_at_ms               BIGINT       NOT NULL
);
CREATE INDEX admin_keys_previous_key_hash ON admin_keys (previous_key_hash);
