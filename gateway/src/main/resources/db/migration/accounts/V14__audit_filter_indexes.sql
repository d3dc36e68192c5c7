-- The console's audit screen filters the audit log by action and by kind of target (docs/console.md, "Fast at
-- volume"): without these an action or kind with few or no entries walks the whole log. Administrative changes
-- are rare, so the indexes cost their writes nothing that matters; audit_log_at and audit_log_target (V12) serve
-- the other reads.
CREATE INDEX audit_log_action ON audit_log (action, at_ms);
CREATE INDEX audit_log_kind ON audit_log (target_type, at_ms);
