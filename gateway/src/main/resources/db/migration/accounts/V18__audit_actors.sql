-- The audit log names people (docs/identity/audit.md): besides `actor` (the id: a user's, an admin key's, a platform
-- key's, `master`, `cli:<login>`), the kind of credential, a name a person reads (an email, a key's name), the role
-- it acted under (`org_admin`, `team_admin(team:X)`, `break_glass`) and the TCP peer's address. NULL in the rows
-- written before. The console's audit screen filters by actor.

ALTER TABLE audit_log ADD COLUMN actor_kind VARCHAR(20);
ALTER TABLE audit_log ADD COLUMN actor_name VARCHAR(200);
ALTER TABLE audit_log ADD COLUMN actor_role VARCHAR(100);
ALTER TABLE audit_log ADD COLUMN source_addr VARCHAR(64);
CREATE INDEX audit_log_actor ON audit_log (actor, at_ms);
