package dev.modelgateway.console;

/**
 * The audit screen's question: the newest entries of the accounts' {@code audit_log}, optionally of one target
 * (a key or team id), one kind of target ({@code key}, {@code team}, {@code ledger}, {@code alerts}) and one action
 * ({@code key.create}) and one actor (a user's, an admin key's or a platform key's id, {@code master}), before a keyset
 * cursor.
 */
record AuditFilter(String targetId, String targetType, String action, String actor, Long beforeAtMs, String beforeId, int limit) {
    static final int MAX_LIMIT = 200;
}
