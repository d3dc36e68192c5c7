package dev.modelgateway.accounts.keys;

import dev.modelgateway.store.Sql;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The {@code sign_in_states} and {@code console_sessions} tables (V21): pending console sign-ins and the sessions they
 * open. Only hashes of the browser's secrets are stored. Blocking: call it from a worker thread.
 */
public final class SessionStore {
    private final Sql db;

    public SessionStore(Sql db) {
        this.db = db;
    }

    /** Stores a pending sign-in, and drops those expired by {@code now}, so that abandoned ones do not pile up. */
    public void begin(String stateHash, PendingSignIn p, Instant now) throws SQLException {
        db.call(c -> {
            try (PreparedStatement old = c.prepareStatement("DELETE FROM sign_in_states WHERE expires_at_ms < ?");
                 PreparedStatement ps = c.prepareStatement("INSERT INTO sign_in_states (id, binding_hash, provider, code_verifier,"
                         + " nonce, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?)")) {
                old.setLong(1, now.toEpochMilli());
                old.executeUpdate();
                ps.setString(1, stateHash);
                ps.setString(2, p.bindingHash());
                ps.setString(3, p.provider());
                ps.setString(4, p.codeVerifier());
                ps.setString(5, p.nonce());
                ps.setLong(6, p.expiresAt().toEpochMilli());
                return ps.executeUpdate();
            }
        });
    }

    /**
     * Takes a pending sign-in once: the row is deleted, and only the caller whose delete removed it gets it, so a
     * replayed {@code state} (on this replica or another) finds nothing.
     */
    public Optional<PendingSignIn> take(String stateHash) throws SQLException {
        return db.call(c -> {
            PendingSignIn found;
            try (PreparedStatement ps = c.prepareStatement("SELECT binding_hash, provider, code_verifier, nonce, expires_at_ms"
                    + " FROM sign_in_states WHERE id = ?")) {
                ps.setString(1, stateHash);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.empty();
                    found = new PendingSignIn(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            Instant.ofEpochMilli(rs.getLong(5)));
                }
            }
            try (PreparedStatement del = c.prepareStatement("DELETE FROM sign_in_states WHERE id = ?")) {
                del.setString(1, stateHash);
                return del.executeUpdate() == 1 ? Optional.of(found) : Optional.empty();
            }
        });
    }

    /** Stores a new session, and drops those past their absolute expiry by {@code now}. */
    public void create(ConsoleSession s, Instant now) throws SQLException {
        db.call(c -> {
            try (PreparedStatement old = c.prepareStatement("DELETE FROM console_sessions WHERE expires_at_ms < ?");
                 PreparedStatement ps = c.prepareStatement("INSERT INTO console_sessions (id, user_id, provider, created_at_ms,"
                         + " last_seen_ms, expires_at_ms, csrf_token, id_token) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                old.setLong(1, now.toEpochMilli());
                old.executeUpdate();
                ps.setString(1, s.id());
                ps.setString(2, s.userId());
                ps.setString(3, s.provider());
                ps.setLong(4, s.createdAt().toEpochMilli());
                ps.setLong(5, s.lastSeen().toEpochMilli());
                ps.setLong(6, s.expiresAt().toEpochMilli());
                ps.setString(7, s.csrfToken());
                ps.setString(8, s.idToken());
                return ps.executeUpdate();
            }
        });
    }

    public Optional<ConsoleSession> find(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id, user_id, provider, created_at_ms, last_seen_ms,"
                    + " expires_at_ms, csrf_token, id_token FROM console_sessions WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.empty();
                    return Optional.of(new ConsoleSession(rs.getString(1), rs.getString(2), rs.getString(3),
                            Instant.ofEpochMilli(rs.getLong(4)), Instant.ofEpochMilli(rs.getLong(5)),
                            Instant.ofEpochMilli(rs.getLong(6)), rs.getString(7), rs.getString(8)));
                }
            }
        });
    }

    /** Records that the session was used (for its idle expiry). */
    public void seen(String id, Instant at) throws SQLException {
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE console_sessions SET last_seen_ms = ? WHERE id = ? AND last_seen_ms < ?")) {
                ps.setLong(1, at.toEpochMilli());
                ps.setString(2, id);
                ps.setLong(3, at.toEpochMilli());
                return ps.executeUpdate();
            }
        });
    }

    public boolean delete(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM console_sessions WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** Whether the user is linked to some subject of {@code issuer} already. */
    public boolean linked(String userId, String issuer) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM user_identities WHERE user_id = ? AND issuer = ?")) {
                ps.setString(1, userId);
                ps.setString(2, issuer);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }
}
