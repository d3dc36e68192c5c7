package dev.modelgateway.accounts.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.access.Actor;
import dev.modelgateway.accounts.keys.AdminKey;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.keys.PreviousSecret;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.accounts.keys.StoredKey;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Sql;
import dev.modelgateway.store.TimeOrderedId;

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
public final class AuditLog {
    /** One change, the settings as stored JSON text; {@code before} is null for a creation, {@code after} for a deletion. */
    public record Entry(String id, Instant at, Actor actor, String action, String targetType, String targetId,
                        String beforeJson, String afterJson) {
    }

    private final Sql db;

    public AuditLog(Sql db) {
        this.db = db;
    }

    public void record(Actor actor, String action, String targetType, String targetId, JsonNode before, JsonNode after)
            throws SQLException {
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO audit_log (id, at_ms, actor, action, target_type,"
                    + " target_id, before_json, after_json, actor_kind, actor_name, actor_role, source_addr)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, TimeOrderedId.next());
                ps.setLong(2, System.currentTimeMillis());
                ps.setString(3, clip(actor.id(), 100));
                ps.setString(4, action);
                ps.setString(5, targetType);
                ps.setString(6, targetId);
                ps.setString(7, before == null ? null : before.toString());
                ps.setString(8, after == null ? null : after.toString());
                ps.setString(9, actor.kind());
                ps.setString(10, clip(actor.name(), 200));
                ps.setString(11, clip(actor.role(), 100));
                ps.setString(12, clip(actor.source(), 64));
                return ps.executeUpdate();
            }
        });
    }

    /** The action of a use of the break-glass master key (one per admin call made with it). */
    public static final String MASTER_KEY_USE = "master_key.use";

    /**
     * The newest {@code limit} entries, newest first; only those of {@code targetId} when it is given. The master key's
     * uses are left out unless {@code masterKeyUses}: a reader polling the log with the master key would otherwise push
     * the changes out of every page with its own reads.
     */
    public List<Entry> list(int limit, String targetId, boolean masterKeyUses) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id, at_ms, actor, action, target_type, target_id,"
                    + " before_json, after_json, actor_kind, actor_name, actor_role, source_addr FROM audit_log WHERE 1 = 1"
                    + (targetId == null ? "" : " AND target_id = ?") + (masterKeyUses ? "" : " AND action <> '" + MASTER_KEY_USE + "'")
                    + " ORDER BY at_ms DESC, id DESC LIMIT " + limit)) {
                if (targetId != null) ps.setString(1, targetId);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Entry> entries = new ArrayList<>();
                    while (rs.next()) {
                        Actor actor = new Actor(rs.getString(9), rs.getString(3), rs.getString(10), rs.getString(11), rs.getString(12));
                        entries.add(new Entry(rs.getString(1), Instant.ofEpochMilli(rs.getLong(2)), actor,
                                rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8)));
                    }
                    return entries;
                }
            }
        });
    }

    /** At most {@code max} characters: the columns are bounded, and a name from an identity provider is not. */
    private static String clip(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    /** A key's settings and state as the log keeps them: everything an administrator sets, never the secret. */
    public static ObjectNode of(StoredKey key) {
        if (key == null) return null;
        KeySettings s = key.settings();
        ObjectNode json = Json.MAPPER.createObjectNode().put("name", s.name());
        json.set("models", strings(s.allowedModels()));
        json.put("rpm", s.rpm()).put("tpm", s.tpm()).set("model_limits", ModelLimit.toJson(s.modelLimits()));
        return json.put("budget_usd", s.budgetUsd() == null ? null : s.budgetUsd().toPlainString())
                .put("budget_period", s.budgetPeriod().wire).put("team_id", s.teamId())
                .put("max_concurrent", s.maxConcurrent())
                .put("expires_at", s.expiresAt() == null ? null : s.expiresAt().toString()).put("disabled", key.disabled());
    }

    /**
     * A key's secrets as a rotation's entry shows them: the display prefixes (as a listing shows them, never a hash) and
     * until when the previous one is accepted.
     */
    public static ObjectNode secrets(StoredKey key) {
        return secrets(key.prefix(), key.previous());
    }

    /** A secret's display prefix and the previous one's, with the end of its grace: a platform key's or an admin key's. */
    public static ObjectNode secrets(String prefix, PreviousSecret previous) {
        ObjectNode json = Json.MAPPER.createObjectNode().put("prefix", prefix);
        if (previous != null) {
            json.put("previous_prefix", previous.prefix()).put("previous_accepted_until", previous.acceptedUntil().toString());
        }
        return json;
    }

    /** An admin key as the log keeps it: what it may do, over what, until when; never a secret. */
    public static ObjectNode of(AdminKey key) {
        if (key == null) return null;
        ObjectNode json = Json.MAPPER.createObjectNode().put("name", key.name()).put("role", key.role() == null ? null : key.role().wire);
        ArrayNode permissions = json.putArray("permissions");
        key.permissions().stream().sorted().forEach(p -> permissions.add(p.wire));
        return json.put("scope", key.scope().wire()).put("expires_at", key.expiresAt() == null ? null : key.expiresAt().toString())
                .put("disabled", key.disabled());
    }

    public static ObjectNode of(Team t) {
        if (t == null) return null;
        ObjectNode json = Json.MAPPER.createObjectNode().put("name", t.name());
        json.set("models", strings(t.allowedModels()));
        return json.put("rpm", t.rpm()).put("tpm", t.tpm())
                .put("budget_usd", t.budgetUsd() == null ? null : t.budgetUsd().toPlainString())
                .put("budget_period", t.budgetPeriod().wire);
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        values.forEach(a::add);
        return a;
    }
}
