-- The accounts schema at version 14 in one script, for a new, empty database: Flyway runs this baseline
-- migration instead of V1 to V14 there, and only the versioned migrations after it; a database that already
-- has a history goes on with the versioned migrations. One script instead of nine saves a first start
-- 60-90 ms of Flyway's per-migration work on one core (docs/performance.md, "Start-up").
-- It is the versioned scripts V1 to V14 one after another, unchanged (BaselineMigrationTest checks it, and that
-- both paths give the same schema). Never edit it; a later version gets its own versioned migration.

-- V1__keys_and_ledger.sql
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

-- V2__model_limits.sql
-- Per-model limits of a key: JSON object {"<model glob>": {"rpm": N, "tpm": N}}, in matching order; NULL = none.
ALTER TABLE api_keys ADD COLUMN model_limits TEXT;

-- V3__transcription_tasks.sql
-- Asynchronous transcription tasks (docs/endpoints.md). Portable between SQLite and PostgreSQL like V1:
-- text and integer types only; the audio is kept as base64 text until the task ends, then cleared.

CREATE TABLE transcription_tasks (
    id             VARCHAR(40)  NOT NULL PRIMARY KEY,
    key_id         VARCHAR(32)  NOT NULL,
    public_model   VARCHAR(200) NOT NULL,
    state          VARCHAR(16)  NOT NULL,   -- queued | running | succeeded | failed
    form_json      TEXT         NOT NULL,   -- the caller's form fields other than the file, as a JSON object
    file_name      VARCHAR(300) NOT NULL,
    file_type      VARCHAR(100),
    audio_b64      TEXT,
    result_json    TEXT,                    -- {"content_type","body"}: the vendor's answer as received
    error_json     TEXT,                    -- {"message","code","status"}
    attempts       INTEGER      NOT NULL DEFAULT 0,
    created_at_ms  BIGINT       NOT NULL,
    started_at_ms  BIGINT,
    finished_at_ms BIGINT,
    updated_at_ms  BIGINT       NOT NULL
);

CREATE INDEX transcription_tasks_state ON transcription_tasks (state);

-- V4__max_concurrent.sql
-- Calls a key may have in flight at once (docs/accounts.md, "Concurrency"); NULL = the gateway's default.
ALTER TABLE api_keys ADD COLUMN max_concurrent BIGINT;

-- V10__teams_and_budget_periods.sql
-- Teams and budgets with a period (docs/accounts.md, "Teams" and "Budgets"). Portable like V1. Numbered from 10 so
-- that the accounts migrations of other subsystems (V5..V9) may still come before it.

CREATE TABLE teams (
    id             VARCHAR(32)  NOT NULL PRIMARY KEY,
    name           VARCHAR(200) NOT NULL,
    allowed_models TEXT,                    -- JSON array of globs; NULL = every model
    rpm            BIGINT,
    tpm            BIGINT,
    budget_usd     VARCHAR(40),
    budget_period  VARCHAR(8),              -- day | week | month | lifetime; NULL = lifetime
    created_at_ms  BIGINT       NOT NULL
);

ALTER TABLE api_keys ADD COLUMN team_id VARCHAR(32);
ALTER TABLE api_keys ADD COLUMN budget_period VARCHAR(8);
-- The key's team when the call was made; not a foreign key, like key_id.
ALTER TABLE usage_ledger ADD COLUMN team_id VARCHAR(32);

-- Spend per holder (a key id, or team:<id>) and span (d2026-11-24, w2026-11-23, m2026-11, lifetime), in 1e-10 USD;
-- every ledger row adds its cost to the four spans containing it, in the transaction that writes it.
CREATE TABLE budget_spend (
    holder        VARCHAR(40) NOT NULL,
    period        VARCHAR(16) NOT NULL,
    spent_usd_e10 BIGINT      NOT NULL,
    PRIMARY KEY (holder, period)
);

INSERT INTO budget_spend (holder, period, spent_usd_e10)
    SELECT id, 'lifetime', spent_usd_e10 FROM api_keys WHERE spent_usd_e10 <> 0;

-- V11__price_classes_and_versions.sql
-- Each ledger row keeps what it was priced with (docs/accounts.md, "Prices"): the price table's version, whether the
-- model's price was the operator's explicit "unknown" (the row then costs 0 and is marked), and server-tool calls.

ALTER TABLE usage_ledger ADD COLUMN web_search_calls BIGINT NOT NULL DEFAULT 0;
ALTER TABLE usage_ledger ADD COLUMN price_version VARCHAR(40);
ALTER TABLE usage_ledger ADD COLUMN price_unknown SMALLINT NOT NULL DEFAULT 0;

-- Every price table a row was priced with, by version: what a row was charged at stays readable after a correction.
CREATE TABLE price_tables (
    version       VARCHAR(40) NOT NULL PRIMARY KEY,
    prices_json   TEXT        NOT NULL,   -- {"<model id>": {"input": "3.00", ...} | "unknown"}
    first_used_ms BIGINT      NOT NULL
);

-- V12__audit_log.sql
-- Every administrative change (docs/accounts.md, "Audit log"): who (the admin API caller's key id, or cli:<user>),
-- what, on which key or team, and its settings before and after as JSON (never a secret).

CREATE TABLE audit_log (
    id          VARCHAR(36)  NOT NULL PRIMARY KEY,   -- time-ordered
    at_ms       BIGINT       NOT NULL,
    actor       VARCHAR(100) NOT NULL,
    action      VARCHAR(40)  NOT NULL,               -- key.create, key.update, key.delete, team.*, reprice, alerts.update
    target_type VARCHAR(20)  NOT NULL,               -- key | team | ledger | alerts
    target_id   VARCHAR(100),
    before_json TEXT,
    after_json  TEXT
);

CREATE INDEX audit_log_at ON audit_log (at_ms);
CREATE INDEX audit_log_target ON audit_log (target_id, at_ms);

-- V13__alerts.sql
-- Alerts (docs/accounts.md, "Alerts"): a budget's soft thresholds, fired once per holder, period span and
-- threshold (the unique key makes "once" hold across instances), and usage of a model priced "unknown", once a day.
-- Each is delivered to the configured webhook, retried until it is accepted or its attempts run out.

CREATE TABLE alerts (
    id              VARCHAR(36)  NOT NULL PRIMARY KEY,
    kind            VARCHAR(20)  NOT NULL,   -- budget | price_unknown
    holder          VARCHAR(200) NOT NULL,   -- a key id, team:<id>, or the model id for price_unknown
    period          VARCHAR(16)  NOT NULL,   -- the span (m2026-11, ...); for price_unknown the day
    threshold       INTEGER      NOT NULL,   -- percent of the budget; 0 for price_unknown
    budget_usd      VARCHAR(40),
    spent_usd_e10   BIGINT,
    created_at_ms   BIGINT       NOT NULL,
    state           VARCHAR(12)  NOT NULL,   -- pending | delivered | failed
    attempts        INTEGER      NOT NULL DEFAULT 0,
    next_attempt_ms BIGINT       NOT NULL,
    last_error      VARCHAR(500),
    delivered_at_ms BIGINT,
    UNIQUE (kind, holder, period, threshold)
);

CREATE INDEX alerts_due ON alerts (state, next_attempt_ms);

-- Gateway-wide settings changed through the admin API, as JSON by name (the alert webhook and thresholds).
CREATE TABLE accounts_settings (
    name       VARCHAR(100) NOT NULL PRIMARY KEY,
    value_json TEXT         NOT NULL
);

-- V14__audit_filter_indexes.sql
-- The console's audit screen filters the audit log by action and by kind of target (docs/console.md, "Fast at
-- volume"): without these an action or kind with few or no entries walks the whole log. Administrative changes
-- are rare, so the indexes cost their writes nothing that matters; audit_log_at and audit_log_target (V12) serve
-- the other reads.
CREATE INDEX audit_log_action ON audit_log (action, at_ms);
CREATE INDEX audit_log_kind ON audit_log (target_type, at_ms);
