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
