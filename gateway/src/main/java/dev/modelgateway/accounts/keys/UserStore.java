package dev.modelgateway.accounts.keys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.access.Grant;
import dev.modelgateway.access.Role;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Sql;
import dev.modelgateway.store.TimeOrderedId;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code users} and {@code user_identities} tables (V19). Blocking: call it from a worker thread or the CLI. */
public final class UserStore {
    private static final String COLUMNS = "u.id, u.user_name, u.email, u.display_name, u.external_id, u.active, u.grants_json,"
            + " u.created_at_ms, u.updated_at_ms";

    private final Sql db;

    public UserStore(Sql db) {
        this.db = db;
    }

    /** A new user, active; {@code now} is the accounts' clock. */
    public User create(String userName, String email, String displayName, String externalId, List<Grant> grants, Instant now)
            throws SQLException {
        User user = new User("usr_" + TimeOrderedId.next().replace("-", ""), userName, email, displayName, externalId, true, grants, now, now);
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO users (id, user_name, email, display_name, external_id,"
                    + " active, grants_json, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)")) {
                ps.setString(1, user.id());
                ps.setString(2, userName);
                ps.setString(3, email);
                ps.setString(4, displayName);
                ps.setString(5, externalId);
                ps.setString(6, grantsJson(grants));
                ps.setLong(7, now.toEpochMilli());
                ps.setLong(8, now.toEpochMilli());
                return ps.executeUpdate();
            }
        });
        return user;
    }

    /** Writes every field but the id and the creation time. */
    public boolean update(User user, Instant now) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE users SET user_name = ?, email = ?, display_name = ?,"
                    + " external_id = ?, active = ?, grants_json = ?, updated_at_ms = ? WHERE id = ?")) {
                ps.setString(1, user.userName());
                ps.setString(2, user.email());
                ps.setString(3, user.displayName());
                ps.setString(4, user.externalId());
                ps.setInt(5, user.active() ? 1 : 0);
                ps.setString(6, grantsJson(user.grants()));
                ps.setLong(7, now.toEpochMilli());
                ps.setString(8, user.id());
                return ps.executeUpdate() > 0;
            }
        });
    }

    public Optional<User> find(String id) throws SQLException {
        return one("SELECT " + COLUMNS + " FROM users u WHERE u.id = ?", id);
    }

    public Optional<User> findByUserName(String userName) throws SQLException {
        return one("SELECT " + COLUMNS + " FROM users u WHERE u.user_name = ?", userName);
    }

    /** The user an identity provider's (issuer, subject) pair is linked to. */
    public Optional<User> findByIdentity(String issuer, String subject) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS
                    + " FROM user_identities i JOIN users u ON u.id = i.user_id WHERE i.issuer = ? AND i.subject = ?")) {
                ps.setString(1, issuer);
                ps.setString(2, subject);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(read(rs)) : Optional.empty();
                }
            }
        });
    }

    /** Links an identity provider's (issuer, subject) pair to a user. */
    public void link(String issuer, String subject, String userId) throws SQLException {
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO user_identities (issuer, subject, user_id) VALUES (?, ?, ?)")) {
                ps.setString(1, issuer);
                ps.setString(2, subject);
                ps.setString(3, userId);
                return ps.executeUpdate();
            }
        });
    }

    /** Users by user name, {@code limit} at most from {@code offset}. */
    public List<User> list(int offset, int limit) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM users u ORDER BY u.user_name LIMIT "
                    + limit + " OFFSET " + offset);
                 ResultSet rs = ps.executeQuery()) {
                List<User> users = new ArrayList<>();
                while (rs.next()) users.add(read(rs));
                return users;
            }
        });
    }

    /** Which attribute a filtered list matches exactly (SCIM's {@code filter=userName eq "x"}, {@code externalId eq}). */
    public enum Field {
        USER_NAME("user_name"), EXTERNAL_ID("external_id");

        final String column;

        Field(String column) {
            this.column = column;
        }
    }

    /** Users whose {@code field} is {@code value} ({@code field} null: all), by user name, {@code limit} at most from {@code offset}. */
    public List<User> list(Field field, String value, int offset, int limit) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM users u" + where(field)
                    + " ORDER BY u.user_name LIMIT " + limit + " OFFSET " + offset)) {
                if (field != null) ps.setString(1, value);
                try (ResultSet rs = ps.executeQuery()) {
                    List<User> users = new ArrayList<>();
                    while (rs.next()) users.add(read(rs));
                    return users;
                }
            }
        });
    }

    /** How many users {@link #list(Field, String, int, int)} would give without a limit. */
    public int count(Field field, String value) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM users u" + where(field))) {
                if (field != null) ps.setString(1, value);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    /** A user name matches whatever its case (RFC 7643 §4.1.1: {@code userName} is not case-exact); an external id exactly. */
    private static String where(Field field) {
        if (field == null) return "";
        return field == Field.USER_NAME ? " WHERE LOWER(u.user_name) = LOWER(?)" : " WHERE u." + field.column + " = ?";
    }

    /** The given and family names SCIM sent (V23), each null when unknown. */
    public String[] names(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT given_name, family_name FROM users WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? new String[]{rs.getString(1), rs.getString(2)} : new String[2];
                }
            }
        });
    }

    public void setNames(String id, String givenName, String familyName) throws SQLException {
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE users SET given_name = ?, family_name = ? WHERE id = ?")) {
                ps.setString(1, givenName);
                ps.setString(2, familyName);
                ps.setString(3, id);
                return ps.executeUpdate();
            }
        });
    }

    /** Takes the user's row lock for the transaction (a no-op update); false when there is no such user. */
    public boolean lock(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE users SET updated_at_ms = updated_at_ms WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    public boolean delete(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ids = c.prepareStatement("DELETE FROM user_identities WHERE user_id = ?");
                 PreparedStatement ps = c.prepareStatement("DELETE FROM users WHERE id = ?")) {
                ids.setString(1, id);
                ids.executeUpdate();
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    private Optional<User> one(String sql, String param) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, param);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(read(rs)) : Optional.empty();
                }
            }
        });
    }

    private static User read(ResultSet rs) throws SQLException {
        return new User(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getInt(6) != 0,
                grants(rs.getString(7)), Instant.ofEpochMilli(rs.getLong(8)), Instant.ofEpochMilli(rs.getLong(9)));
    }

    /** {@code [{"role":"team_admin","team":"team_x"}]}: roles only (an admin key's grants are not stored here). */
    static String grantsJson(List<Grant> grants) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (Grant g : grants) {
            if (g.role() == null) continue;
            ObjectNode o = a.addObject().put("role", g.role().wire);
            if (g.scope().teamId() != null) o.put("team", g.scope().teamId());
        }
        return a.toString();
    }

    static List<Grant> grants(String json) {
        if (json == null) return List.of();
        JsonNode a = Json.parseOrNull(json);
        List<Grant> grants = new ArrayList<>();
        if (a == null) return grants;
        for (JsonNode o : a) {
            Role.ofWire(o.path("role").asText()).ifPresent(r -> grants.add(Grant.of(r, o.hasNonNull("team") ? o.get("team").asText() : null)));
        }
        return grants;
    }
}
