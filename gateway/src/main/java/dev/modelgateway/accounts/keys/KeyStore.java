package dev.modelgateway.accounts.keys;

import dev.modelgateway.json.Json;
import dev.modelgateway.store.Sql;
import io.vertx.core.json.JsonArray;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code api_keys} table. Blocking: call it from a worker thread or the CLI. */
public final class KeyStore {
    private static final String SETTINGS = "name, allowed_models, rpm, tpm, budget_usd, expires_at_ms, model_limits,"
            + " max_concurrent, team_id, budget_period";
    /** A key with its team's row (columns {@code t_*}), if it has one. */
    private static final String COLUMNS = "k.id, k.key_prefix, k.disabled, k.created_at_ms, k.name, k.allowed_models,"
            + " k.rpm, k.tpm, k.budget_usd, k.expires_at_ms, k.model_limits, k.max_concurrent, k.team_id, k.budget_period,"
            + " k.previous_key_prefix, k.previous_key_expires_at_ms, k.owner_user_id, " + TeamStore.columns("t");
    private static final String FROM = " FROM api_keys k LEFT JOIN teams t ON t.id = k.team_id";
    private static final String SELECT = "SELECT " + COLUMNS + FROM;

    private final Sql db;

    public KeyStore(Sql db) {
        this.db = db;
    }

    /**
     * Creates a key, disabled from the start if asked; the returned secret exists nowhere else, so the caller must
     * show it now.
     */
    public CreatedKey create(KeySettings settings, boolean disabled) throws SQLException {
        return create(settings, disabled, null);
    }

    /** A key owned by a user or admin key ({@code ownerUserId}, null for none), as {@link #create(KeySettings, boolean)}. */
    public CreatedKey create(KeySettings settings, boolean disabled, String ownerUserId) throws SQLException {
        String secret = KeyToken.newSecret();
        StoredKey key = new StoredKey(KeyToken.newId(), KeyToken.displayPrefix(secret), settings, disabled,
                Instant.ofEpochMilli(System.currentTimeMillis()), ownerUserId);
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO api_keys (id, key_hash, key_prefix, disabled,"
                    + " created_at_ms, " + SETTINGS + ", owner_user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, key.id());
                ps.setString(2, KeyToken.hash(secret));
                ps.setString(3, key.prefix());
                ps.setInt(4, disabled ? 1 : 0);
                ps.setLong(5, key.createdAt().toEpochMilli());
                bindSettings(ps, 6, settings);
                ps.setString(16, ownerUserId);
                return ps.executeUpdate();
            }
        });
        return new CreatedKey(find(key.id()).orElse(key), secret); // with its team's row
    }

    /**
     * The key whose current secret, or previous one (a rotation's, in its grace or past it), has this hash. Both are
     * looked up at once, each by its index.
     */
    public Optional<KeyMatch> findBySecretHash(String hash) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + ", k.key_hash" + FROM
                    + " WHERE k.key_hash = ? OR k.previous_key_hash = ?")) {
                ps.setString(1, hash);
                ps.setString(2, hash);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.empty();
                    return Optional.of(new KeyMatch(read(rs), !hash.equals(rs.getString("key_hash"))));
                }
            }
        });
    }

    public Optional<StoredKey> find(String id) throws SQLException {
        return db.call(c -> one(c, SELECT + " WHERE k.id = ?", id));
    }

    public List<StoredKey> list() throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement(SELECT + " ORDER BY k.created_at_ms, k.id");
                 ResultSet rs = ps.executeQuery()) {
                List<StoredKey> keys = new ArrayList<>();
                while (rs.next()) keys.add(read(rs));
                return keys;
            }
        });
    }

    /**
     * Locks the key's row until the transaction ends; false if there is no such key. A write comes first, so that
     * PostgreSQL holds the row and SQLite the database (one writer) before the row is read: a change applied to what
     * {@link #find} then reads is never lost to another change made at the same time.
     */
    public boolean lock(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE api_keys SET disabled = disabled WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** Replaces a key's settings and state; false if there is no such key. */
    public boolean update(String id, KeySettings settings, boolean disabled) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE api_keys SET name = ?, allowed_models = ?, rpm = ?,"
                    + " tpm = ?, budget_usd = ?, expires_at_ms = ?, model_limits = ?, max_concurrent = ?, team_id = ?,"
                    + " budget_period = ?, disabled = ? WHERE id = ?")) {
                bindSettings(ps, 1, settings);
                ps.setInt(11, disabled ? 1 : 0);
                ps.setString(12, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /**
     * Gives the key a new secret and keeps its current one as its previous, accepted until {@code previousUntil}; a
     * previous secret an earlier rotation left is forgotten. Everything else (id, settings, spend) stays. Empty if
     * there is no such key; the new secret exists nowhere else, so the caller must show it now.
     */
    public Optional<CreatedKey> rotate(String id, Instant previousUntil) throws SQLException {
        String secret = KeyToken.newSecret();
        int updated = db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE api_keys SET previous_key_hash = key_hash,"
                    + " previous_key_prefix = key_prefix, previous_key_expires_at_ms = ?, key_hash = ?, key_prefix = ?"
                    + " WHERE id = ?")) {
                ps.setLong(1, previousUntil.toEpochMilli());
                ps.setString(2, KeyToken.hash(secret));
                ps.setString(3, KeyToken.displayPrefix(secret));
                ps.setString(4, id);
                return ps.executeUpdate();
            }
        });
        return updated == 0 ? Optional.empty() : find(id).map(key -> new CreatedKey(key, secret));
    }

    public boolean delete(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM api_keys WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** Binds the {@link #SETTINGS} columns in order from {@code first}. */
    private static void bindSettings(PreparedStatement ps, int first, KeySettings s) throws SQLException {
        ps.setString(first, s.name());
        ps.setString(first + 1, s.allowedModels().isEmpty() ? null : new JsonArray(s.allowedModels()).encode());
        setNullableLong(ps, first + 2, s.rpm());
        setNullableLong(ps, first + 3, s.tpm());
        ps.setString(first + 4, s.budgetUsd() == null ? null : s.budgetUsd().toPlainString());
        setNullableLong(ps, first + 5, s.expiresAt() == null ? null : s.expiresAt().toEpochMilli());
        ps.setString(first + 6, s.modelLimits().isEmpty() ? null : ModelLimit.toJson(s.modelLimits()).toString());
        setNullableLong(ps, first + 7, s.maxConcurrent());
        ps.setString(first + 8, s.teamId());
        ps.setString(first + 9, s.budgetPeriod().wire);
    }

    private static Optional<StoredKey> one(Connection c, String sql, String arg) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    private static StoredKey read(ResultSet rs) throws SQLException {
        String models = rs.getString("allowed_models");
        String budget = rs.getString("budget_usd");
        String modelLimits = rs.getString("model_limits");
        long expires = rs.getLong("expires_at_ms");
        Instant expiresAt = rs.wasNull() ? null : Instant.ofEpochMilli(expires);
        KeySettings settings = new KeySettings(rs.getString("name"),
                models == null ? List.of() : new JsonArray(models).stream().map(String::valueOf).toList(),
                nullableLong(rs, "rpm"), nullableLong(rs, "tpm"),
                budget == null ? null : new BigDecimal(budget), expiresAt,
                modelLimits == null ? List.of() : ModelLimit.fromJson(Json.parseOrNull(modelLimits)),
                nullableLong(rs, "max_concurrent"), rs.getString("team_id"), BudgetPeriod.parse(rs.getString("budget_period")));
        Long previousUntil = nullableLong(rs, "previous_key_expires_at_ms");
        PreviousSecret previous = previousUntil == null ? null
                : new PreviousSecret(rs.getString("previous_key_prefix"), Instant.ofEpochMilli(previousUntil));
        return new StoredKey(rs.getString("id"), rs.getString("key_prefix"), settings, rs.getInt("disabled") != 0,
                Instant.ofEpochMilli(rs.getLong("created_at_ms")), TeamStore.read(rs, "t_"), previous, rs.getString("owner_user_id"));
    }

    static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    static void setNullableLong(PreparedStatement ps, int i, Long v) throws SQLException {
        if (v == null) ps.setNull(i, Types.BIGINT);
        else ps.setLong(i, v);
    }

    public record CreatedKey(StoredKey key, String secret) {}

    /**
     * Disables every enabled key {@code userId} owns, marking them as disabled with the user (V23), for a deactivation;
     * the ids disabled.
     */
    public List<String> disableOwnedBy(String userId) throws SQLException {
        List<String> ids = ownedBy(userId, "disabled = 0");
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE api_keys SET disabled = 1, disabled_with_user = 1"
                    + " WHERE owner_user_id = ? AND disabled = 0")) {
                ps.setString(1, userId);
                return ps.executeUpdate();
            }
        });
        return ids;
    }

    /** Enables the keys of {@code userId} that its deactivation disabled, and only those; the ids enabled. */
    public List<String> enableDisabledWithUser(String userId) throws SQLException {
        List<String> ids = ownedBy(userId, "disabled_with_user = 1");
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE api_keys SET disabled = 0, disabled_with_user = 0"
                    + " WHERE owner_user_id = ? AND disabled_with_user = 1")) {
                ps.setString(1, userId);
                return ps.executeUpdate();
            }
        });
        return ids;
    }

    private List<String> ownedBy(String userId, String condition) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM api_keys WHERE owner_user_id = ? AND " + condition + " ORDER BY id")) {
                ps.setString(1, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    List<String> ids = new ArrayList<>();
                    while (rs.next()) ids.add(rs.getString(1));
                    return ids;
                }
            }
        });
    }
}
