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
