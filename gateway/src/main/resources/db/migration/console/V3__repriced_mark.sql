-- The last reprice (its audit log entry's id) whose days the rollups were rebuilt for (docs/console.md, "Rollups").
-- Empty: every reprice of the audit log is taken once, which corrects the rollups of reprices made before.
INSERT INTO console_rollup_state (name, value) VALUES ('repriced', '');
