package dev.modelgateway.accounts;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code audit_log} table: one row per administrative change, through the admin API or the CLI, with the
 * actor, the action and the settings before and after (docs/accounts.md, "Audit log"). Written in the transaction
 * of the change it records ({@link Sql#in}). Blocking.
 */
final class AuditLog {
    /** One change; {@code before} is null for a creation, {@code after} for a deletion. */
    record Entry(String id, Instant at, String actor, String action, String targetType, String targetId,
                 JsonObject before, JsonObject after) {
        JsonObject json() {
            return new JsonObject().put("id", id).put("object", "audit_entry").put("at", at.toString()).put("actor", actor)
                    .put("action", action).put("target_type", targetType).put("target_id", targetId)
                    .put("before", before).put("after", after);
        }
    }

    private final Sql db;

    AuditLog(Sql db) {
        this.db = db;
    }

    void record(String actor, String action, String targetType, String targetId, JsonObject before, JsonObject after)
            throws SQLException {
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO audit_log (id, at_ms, actor, action, target_type,"
                    + " target_id, before_json, after_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, TimeOrderedId.next());
                ps.setLong(2, System.currentTimeMillis());
                ps.setString(3, actor);
                ps.setString(4, action);
                ps.setString(5, targetType);
                ps.setString(6, targetId);
                ps.setString(7, before == null ? null : before.encode());
                ps.setString(8, after == null ? null : after.encode());
                return ps.executeUpdate();
            }
        });
    }

    /** The newest {@code limit} entries, newest first; only those of {@code targetId} when it is given. */
    List<Entry> list(int limit, String targetId) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id, at_ms, actor, action, target_type, target_id,"
                    + " before_json, after_json FROM audit_log" + (targetId == null ? "" : " WHERE target_id = ?")
                    + " ORDER BY at_ms DESC, id DESC LIMIT " + limit)) {
                if (targetId != null) ps.setString(1, targetId);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Entry> entries = new ArrayList<>();
                    while (rs.next()) {
                        String before = rs.getString(7);
                        String after = rs.getString(8);
                        entries.add(new Entry(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), rs.getString(3),
                                rs.getString(4), rs.getString(5), rs.getString(6),
                                before == null ? null : new JsonObject(before), after == null ? null : new JsonObject(after)));
                    }
                    return entries;
                }
            }
        });
    }

    /** A key's settings and state as the log keeps them: everything an administrator sets, never the secret. */
    static JsonObject of(StoredKey key) {
        if (key == null) return null;
        KeySettings s = key.settings();
        return new JsonObject().put("name", s.name()).put("models", new JsonArray(s.allowedModels())).put("rpm", s.rpm())
                .put("tpm", s.tpm()).put("model_limits", ModelLimit.toJson(s.modelLimits()))
                .put("budget_usd", s.budgetUsd() == null ? null : s.budgetUsd().toPlainString())
                .put("budget_period", s.budgetPeriod().wire).put("team_id", s.teamId())
                .put("max_concurrent", s.maxConcurrent())
                .put("expires_at", s.expiresAt() == null ? null : s.expiresAt().toString()).put("disabled", key.disabled());
    }

    static JsonObject of(Team t) {
        if (t == null) return null;
        return new JsonObject().put("name", t.name()).put("models", new JsonArray(t.allowedModels())).put("rpm", t.rpm())
                .put("tpm", t.tpm()).put("budget_usd", t.budgetUsd() == null ? null : t.budgetUsd().toPlainString())
                .put("budget_period", t.budgetPeriod().wire);
    }
}
