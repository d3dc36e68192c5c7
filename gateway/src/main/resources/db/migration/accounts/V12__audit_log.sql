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
