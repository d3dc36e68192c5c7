package dev.modelgateway.accounts.keys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Role;
import dev.modelgateway.access.Scope;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Sql;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The {@code admin_keys} table (V20). Blocking: call it from a worker thread or the CLI. */
public final class AdminKeyStore {
    private static final String COLUMNS = "id, name, key_prefix, role, permissions_json, scope, expires_at_ms, last_used_at_ms,"
            + " disabled, previous_key_prefix, previous_key_expires_at_ms, created_by, created_at_ms";

    private final Sql db;

    public AdminKeyStore(Sql db) {
        this.db = db;
    }

    /** A new key; its secret exists nowhere else, so the caller must show it now. */
    public AdminKey.Issued create(String name, Role role, Set<Permission> permissions, Scope scope, Instant expiresAt,
                                  String createdBy, Instant now) throws SQLException {
        String secret = KeyToken.newAdminSecret();
        AdminKey key = new AdminKey(KeyToken.newAdminId(), name, KeyToken.displayPrefix(secret), role, permissions, scope,
                expiresAt, null, false, null, createdBy, Instant.ofEpochMilli(now.toEpochMilli()));
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO admin_keys (id, name, key_hash, key_prefix, role,"
                    + " permissions_json, scope, expires_at_ms, disabled, created_by, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)")) {
                ps.setString(1, key.id());
                ps.setString(2, name);
                ps.setString(3, KeyToken.hash(secret));
                ps.setString(4, key.prefix());
                ps.setString(5, role == null ? null : role.wire);
                ps.setString(6, permissionsJson(permissions));
                ps.setString(7, scope.wire());
                setInstant(ps, 8, expiresAt);
                ps.setString(9, createdBy);
                ps.setLong(10, key.createdAt().toEpochMilli());
                return ps.executeUpdate();
            }
        });
        return new AdminKey.Issued(key, secret);
    }

    /** The key whose current or previous secret has this hash, both looked up by their index. */
    public Optional<AdminKey.Match> findBySecretHash(String hash) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + ", key_hash FROM admin_keys"
                    + " WHERE key_hash = ? OR previous_key_hash = ?")) {
                ps.setString(1, hash);
                ps.setString(2, hash);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.empty();
                    return Optional.of(new AdminKey.Match(read(rs), !hash.equals(rs.getString("key_hash"))));
                }
            }
        });
    }

    public Optional<AdminKey> find(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM admin_keys WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(read(rs)) : Optional.empty();
                }
            }
        });
    }

    public List<AdminKey> list() throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM admin_keys ORDER BY created_at_ms, id");
                 ResultSet rs = ps.executeQuery()) {
                List<AdminKey> keys = new ArrayList<>();
                while (rs.next()) keys.add(read(rs));
                return keys;
            }
        });
    }

    /** Locks the key's row until the transaction ends (as {@link KeyStore#lock}); false if there is no such key. */
    public boolean lock(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE admin_keys SET disabled = disabled WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** What an administrator may change on an existing key: its name, state and expiry. */
    public boolean update(String id, String name, boolean disabled, Instant expiresAt) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE admin_keys SET name = ?, disabled = ?, expires_at_ms = ? WHERE id = ?")) {
                ps.setString(1, name);
                ps.setInt(2, disabled ? 1 : 0);
                setInstant(ps, 3, expiresAt);
                ps.setString(4, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** A new secret; the current one becomes the previous, accepted until {@code previousUntil} (as {@link KeyStore#rotate}). */
    public Optional<AdminKey.Issued> rotate(String id, Instant previousUntil) throws SQLException {
        String secret = KeyToken.newAdminSecret();
        int updated = db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE admin_keys SET previous_key_hash = key_hash,"
                    + " previous_key_prefix = key_prefix, previous_key_expires_at_ms = ?, key_hash = ?, key_prefix = ? WHERE id = ?")) {
                ps.setLong(1, previousUntil.toEpochMilli());
                ps.setString(2, KeyToken.hash(secret));
                ps.setString(3, KeyToken.displayPrefix(secret));
                ps.setString(4, id);
                return ps.executeUpdate();
            }
        });
        return updated == 0 ? Optional.empty() : find(id).map(k -> new AdminKey.Issued(k, secret));
    }

    /** Records a use; the caller bounds how often (a write a minute per key at most). */
    public void touch(String id, Instant at) throws SQLException {
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE admin_keys SET last_used_at_ms = ? WHERE id = ?")) {
                ps.setLong(1, at.toEpochMilli());
                ps.setString(2, id);
                return ps.executeUpdate();
            }
        });
    }

    public boolean delete(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM admin_keys WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    private static AdminKey read(ResultSet rs) throws SQLException {
        Long previousUntil = KeyStore.nullableLong(rs, "previous_key_expires_at_ms");
        PreviousSecret previous = previousUntil == null ? null
                : new PreviousSecret(rs.getString("previous_key_prefix"), Instant.ofEpochMilli(previousUntil));
        String role = rs.getString("role");
        return new AdminKey(rs.getString("id"), rs.getString("name"), rs.getString("key_prefix"),
                role == null ? null : Role.ofWire(role).orElse(null), permissions(rs.getString("permissions_json")),
                Scope.ofWire(rs.getString("scope")), instant(rs, "expires_at_ms"), instant(rs, "last_used_at_ms"),
                rs.getInt("disabled") != 0, previous, rs.getString("created_by"), Instant.ofEpochMilli(rs.getLong("created_at_ms")));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Long ms = KeyStore.nullableLong(rs, column);
        return ms == null ? null : Instant.ofEpochMilli(ms);
    }

    private static void setInstant(PreparedStatement ps, int i, Instant t) throws SQLException {
        if (t == null) ps.setNull(i, Types.BIGINT);
        else ps.setLong(i, t.toEpochMilli());
    }

    static String permissionsJson(Set<Permission> permissions) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        permissions.stream().sorted().forEach(p -> a.add(p.wire));
        return a.toString();
    }

    /** A wire name no longer known (a permission removed in a later version) grants nothing. */
    static Set<Permission> permissions(String json) {
        Set<Permission> set = EnumSet.noneOf(Permission.class);
        JsonNode a = Json.parseOrNull(json);
        if (a != null) for (JsonNode p : a) Permission.ofWire(p.asText()).ifPresent(set::add);
        return set;
    }
}
