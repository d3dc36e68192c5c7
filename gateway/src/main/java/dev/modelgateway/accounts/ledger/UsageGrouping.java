package dev.modelgateway.accounts.ledger;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;

/** A dimension of the usage report, with portable SQL for it. Days and hours are UTC. */
public enum UsageGrouping {
    KEY("key_id", "key_id"),
    MODEL("public_model", "model"),
    ANSWERED_MODEL("answered_model", "answered_model"),
    /** The deployment that served the rows, which their prices come from (docs/clouds.md, "Prices"). */
    DEPLOYMENT("deployment", "deployment"),
    /** The user billed (an identity provider token's, or the key's owner); null for keys that belong to nobody. */
    USER("user_id", "user_id"),
    DAY("(at_ms / 86400000)", "day"),
    HOUR("(at_ms / 3600000)", "hour");

    final String sql;
    public final String field;

    UsageGrouping(String sql, String field) {
        this.sql = sql;
        this.field = field;
    }

    public static UsageGrouping parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The group's label from its SQL value: the text itself, or the bucket's start. */
    String label(Object value) {
        return switch (this) {
            case DAY -> Instant.ofEpochMilli(((Number) value).longValue() * 86_400_000).atOffset(ZoneOffset.UTC).toLocalDate().toString();
            case HOUR -> Instant.ofEpochMilli(((Number) value).longValue() * 3_600_000).toString();
            default -> value == null ? null : value.toString();
        };
    }
}
