-- Portable between SQLite and PostgreSQL: integer and text types only. Instants are epoch
-- milliseconds (BIGINT); money is either exact decimal text (budgets, never summed in SQL) or
-- BIGINT in units of 1e-10 USD (spend and cost, summed exactly by SQL on both databases).

CREATE TABLE api_keys (
    id             VARCHAR(32)  NOT NULL PRIMARY KEY,
    name           VARCHAR(200) NOT NULL,
    key_hash       CHAR(64)     NOT NULL UNIQUE,   -- SHA-256 hex of the secret; the secret is never stored
    key_prefix     VARCHAR(16)  NOT NULL,          -- shown in listings to recognise a key
    allowed_models TEXT,                           -- JSON array of globs; NULL = every model
    rpm            BIGINT,
    tpm            BIGINT,
    budget_usd     VARCHAR(40),
    expires_at_ms  BIGINT,
    disabled       SMALLINT     NOT NULL DEFAULT 0,
    spent_usd_e10  BIGINT       NOT NULL DEFAULT 0, -- running total of usage_ledger.cost_usd_e10
    created_at_ms  BIGINT       NOT NULL
);

-- One row per request. key_id is not a foreign key: usage outlives a deleted key.
CREATE TABLE usage_ledger (
    id                    VARCHAR(36)  NOT NULL PRIMARY KEY,
    trace_id              VARCHAR(100),
    key_id                VARCHAR(32)  NOT NULL,
    public_model          VARCHAR(200),
    answered_model        VARCHAR(200),
    vendor                VARCHAR(100),
    input_tokens          BIGINT       NOT NULL,
    cache_read_tokens     BIGINT       NOT NULL,
    cache_write_5m_tokens BIGINT       NOT NULL,
    cache_write_1h_tokens BIGINT       NOT NULL,
    output_tokens         BIGINT       NOT NULL,
    reasoning_tokens      BIGINT       NOT NULL,
    attempts              INTEGER      NOT NULL,
    status                INTEGER      NOT NULL,
    latency_ms            BIGINT       NOT NULL,
    ttft_ms               BIGINT,
    at_ms                 BIGINT       NOT NULL,
    cost_usd_e10          BIGINT       NOT NULL
);

CREATE INDEX usage_ledger_at ON usage_ledger (at_ms);
CREATE INDEX usage_ledger_key_at ON usage_ledger (key_id, at_ms);
