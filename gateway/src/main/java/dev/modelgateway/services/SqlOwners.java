package dev.modelgateway.services;

import dev.modelgateway.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

/**
 * The owners of vendor B objects in PostgreSQL ({@code response_owners}), for a gateway on PostgreSQL without
 * Redis: shared by every instance on the database. Expired rows are not read, and are deleted every minute by each
 * instance.
 */
final class SqlOwners implements SharedOwners {
    private static final long SWEEP_EVERY_MS = 60_000;
    private static final Logger LOG = LoggerFactory.getLogger(SqlOwners.class);

    private final Vertx vertx;
    private final Database db;
    private final LongSupplier clock;
    private final long sweepTimer;

    SqlOwners(Vertx vertx, Database db, LongSupplier clock, boolean sweeping) {
        this.vertx = vertx;
        this.db = db;
        this.clock = clock;
        this.sweepTimer = !sweeping ? -1 : vertx.setPeriodic(SWEEP_EVERY_MS, t -> blocking(this::sweep)
                .onFailure(e -> LOG.warn("owners of vendor B responses not swept: {}", e.toString())));
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    /** First writer wins ({@code ON CONFLICT DO NOTHING}). */
    @Override
    public Future<Void> put(String id, String keyId, long ttlMs) {
        long expires = clock.getAsLong() + ttlMs;
        return blocking(() -> db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO response_owners (id, key_id, expires_at_ms) VALUES (?, ?, ?) "
                    + "ON CONFLICT (id) DO NOTHING")) {
                ps.setString(1, id);
                ps.setString(2, keyId);
                ps.setLong(3, expires);
                return ps.executeUpdate();
            }
        })).mapEmpty();
    }

    @Override
    public Future<String> get(String id) {
        return blocking(() -> db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT key_id FROM response_owners WHERE id = ? AND expires_at_ms > ?")) {
                ps.setString(1, id);
                ps.setLong(2, clock.getAsLong());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        }));
    }

    @Override
    public Future<Void> delete(String id) {
        return blocking(() -> db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM response_owners WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate();
            }
        })).mapEmpty();
    }

    /** @return the expired rows deleted */
    int sweep() throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM response_owners WHERE expires_at_ms <= ?")) {
                ps.setLong(1, clock.getAsLong());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public Future<Void> close() {
        if (sweepTimer >= 0) vertx.cancelTimer(sweepTimer);
        return Future.succeededFuture();
    }

    private <T> Future<T> blocking(Callable<T> work) {
        return vertx.executeBlocking(work, false);
    }
}
