package dev.modelgateway.console;

/** One {@code audit_log} row as stored: the settings before and after as JSON text (null for a creation, a deletion). */
record AuditRow(String id, long atMs, String actor, String action, String targetType, String targetId, String beforeJson,
                String afterJson, String actorKind, String actorName, String actorRole, String source) {
}
