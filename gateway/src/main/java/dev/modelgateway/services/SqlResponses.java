package dev.modelgateway.services;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.observability.LogThrottle;
import dev.modelgateway.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The stored responses of a gateway on PostgreSQL: one row per response in {@code stored_responses}, so every
 * instance on the database finds them. JDBC runs on worker threads. A response is written as the caller receives
 * it; until the write is committed this instance answers from memory, and another instance that does not find an
 * id looks again for up to {@link #LOOK_AGAIN_MS} in all, so that a client sending its next turn through another
 * instance at once still finds it. Expired rows are not read and are deleted, with those past the total bound
 * (least recently used first), every {@link #SWEEP_EVERY_MS} by each instance.
 */
final class SqlResponses implements ResponseStore {
    static final long SWEEP_EVERY_MS = 60_000;
    /** A stop waits this long for the writes in flight (docs/configuration.md, "Shutdown"). */
    private static final long CLOSE_TIMEOUT_MS = 5_000;
    /** The waits before looking again for ids not found: one second in all. */
    private static final long[] LOOK_AGAIN_MS = {100, 300, 600};
    /** Ids per {@code IN (...)}: a request refers to a few responses, a hostile one to many. */
    private static final int IDS_PER_QUERY = 100;
    private static final Logger LOG = LoggerFactory.getLogger(SqlResponses.class);
    /** Once per 10 s: during an outage every call fails the same way. */
    private static final LogThrottle WARNINGS = new LogThrottle(Duration.ofSeconds(10));

    /** A response being written: found here until its row is committed. */
    private record Pending(Stored stored, Future<Void> written) {
    }

    private final Vertx vertx;
    private final Database db;
    private final ResponseBounds bounds;
    private final LongSupplier clock;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final long sweepTimer;

    SqlResponses(Vertx vertx, Database db, ResponseBounds bounds, LongSupplier clock, long sweepEveryMs) {
        this.vertx = vertx;
        this.db = db;
        this.bounds = bounds;
        this.clock = clock;
        this.sweepTimer = sweepEveryMs <= 0 ? -1 : vertx.setPeriodic(sweepEveryMs, t -> blocking(() -> {
            sweep();
            return null;
        }).onFailure(e -> LOG.warn("stored responses not swept: {}", e.toString())));
    }

    /** On a database with the services' migrations ({@link SharedServices#SCHEMA}) applied. */
    static SqlResponses open(Vertx vertx, Database db, ResponseBounds bounds) {
        return new SqlResponses(vertx, db, bounds, System::currentTimeMillis, SWEEP_EVERY_MS);
    }

    @Override
    public ResponseBounds bounds() {
        return bounds;
    }

    @Override
    public Future<Void> put(String responseId, String keyId, Input input, ObjectNode response) {
        Stored stored = new Stored(keyId, input.json(), Json.toBuffer(response).getBytes());
        if (stored.bytes() > bounds.maxResponseBytes()) return Future.failedFuture(bounds.tooLarge(stored.bytes()));
        long now = clock.getAsLong();
        Promise<Void> written = Promise.promise();
        pending.put(responseId, new Pending(stored, written.future()));
        blocking(() -> insert(responseId, stored, now)).<Void>mapEmpty().onComplete(done -> {
            pending.remove(responseId);
            if (done.failed()) warn("response " + responseId + " not stored: " + done.cause());
            written.handle(done);
        });
        return written.future();
    }

    @Override
    public Future<Map<String, Stored>> find(Collection<String> responseIds, String keyId) {
        Map<String, Stored> found = new HashMap<>();
        Set<String> asked = new LinkedHashSet<>();
        for (String id : responseIds) {
            Pending p = pending.get(id);
            if (p == null) asked.add(id);
            else if (p.stored().keyId().equals(keyId)) found.put(id, p.stored());
        }
        if (asked.isEmpty()) return Future.succeededFuture(found);
        return read(asked, keyId, 0).<Map<String, Stored>>map(rows -> {
            found.putAll(rows);
            return found;
        }).recover(SqlResponses::unavailable);
    }

    /** Reads the rows, and looks again after each of {@link #LOOK_AGAIN_MS} while some are missing. */
    private Future<Map<String, Stored>> read(Set<String> ids, String keyId, int round) {
        return blocking(() -> select(ids, keyId, clock.getAsLong())).compose(rows -> {
            if (rows.size() == ids.size() || round == LOOK_AGAIN_MS.length) return Future.succeededFuture(rows);
            Set<String> missing = new LinkedHashSet<>(ids);
            missing.removeAll(rows.keySet());
            Promise<Void> later = Promise.promise();
            vertx.setTimer(LOOK_AGAIN_MS[round], t -> later.complete());
            return later.future().compose(v -> read(missing, keyId, round + 1)).map(more -> {
                rows.putAll(more);
                return rows;
            });
        });
    }

    @Override
    public Future<Boolean> remove(String responseId, String keyId) {
        Pending p = pending.get(responseId);
        // found first: one being written, or written by another instance a moment ago, is waited for
        Future<Void> written = p == null ? Future.succeededFuture() : p.written().otherwiseEmpty();
        Future<Stored> found = written.compose(v -> find(responseId, keyId));
        return found.compose(s -> s == null ? Future.succeededFuture(false) : blocking(() -> delete(responseId, keyId, clock.getAsLong()))
                .recover(SqlResponses::unavailable));
    }

    @Override
    public Future<Void> close() {
        if (sweepTimer >= 0) vertx.cancelTimer(sweepTimer);
        return Future.join(pending.values().stream().map(Pending::written).toList())
                .timeout(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).<Void>mapEmpty().otherwiseEmpty();
    }

    private int insert(String id, Stored s, long now) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO stored_responses (id, key_id, input_json, response_json, "
                    + "size_bytes, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, id);
                ps.setString(2, s.keyId());
                ps.setString(3, new String(s.inputJson(), StandardCharsets.UTF_8));
                ps.setString(4, new String(s.responseJson(), StandardCharsets.UTF_8));
                ps.setLong(5, s.bytes());
                ps.setLong(6, now);
                ps.setLong(7, now + bounds.idleExpiry().toMillis());
                return ps.executeUpdate();
            }
        });
    }

    /** The key's unexpired rows among {@code ids}; their idle expiry starts again. */
    Map<String, Stored> select(Set<String> ids, String keyId, long now) throws SQLException {
        Map<String, Stored> rows = new HashMap<>();
        List<String> all = new ArrayList<>(ids);
        for (int from = 0; from < all.size(); from += IDS_PER_QUERY) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + IDS_PER_QUERY));
            String marks = String.join(", ", Collections.nCopies(chunk.size(), "?"));
            db.call(c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT id, input_json, response_json FROM stored_responses "
                        + "WHERE key_id = ? AND expires_at_ms > ? AND id IN (" + marks + ")")) {
                    ps.setString(1, keyId);
                    ps.setLong(2, now);
                    for (int i = 0; i < chunk.size(); i++) ps.setString(i + 3, chunk.get(i));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rows.put(rs.getString(1), new Stored(keyId, rs.getString(2).getBytes(StandardCharsets.UTF_8),
                                    rs.getString(3).getBytes(StandardCharsets.UTF_8)));
                        }
                    }
                }
                List<String> used = chunk.stream().filter(rows::containsKey).toList();
                if (used.isEmpty()) return null;
                try (PreparedStatement ps = c.prepareStatement("UPDATE stored_responses SET expires_at_ms = ? WHERE key_id = ? "
                        + "AND id IN (" + String.join(", ", Collections.nCopies(used.size(), "?")) + ")")) {
                    ps.setLong(1, now + bounds.idleExpiry().toMillis());
                    ps.setString(2, keyId);
                    for (int i = 0; i < used.size(); i++) ps.setString(i + 3, used.get(i));
                    ps.executeUpdate();
                }
                return null;
            });
        }
        return rows;
    }

    private boolean delete(String id, String keyId, long now) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM stored_responses WHERE id = ? AND key_id = ? AND expires_at_ms > ?")) {
                ps.setString(1, id);
                ps.setString(2, keyId);
                ps.setLong(3, now);
                return ps.executeUpdate() == 1;
            }
        });
    }

    /**
     * Deletes the expired rows, then the least recently used beyond the total bound (a running sum from the most
     * recently used down). Every instance sweeps; the deletes are the same whoever runs them.
     *
     * @return the rows deleted
     */
    int sweep() throws SQLException {
        long now = clock.getAsLong();
        return db.call(c -> {
            int deleted;
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM stored_responses WHERE expires_at_ms <= ?")) {
                ps.setLong(1, now);
                deleted = ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM stored_responses WHERE id IN (SELECT id FROM ("
                    + "SELECT id, SUM(size_bytes) OVER (ORDER BY expires_at_ms DESC, id) AS kept FROM stored_responses) ranked "
                    + "WHERE kept > ?)")) {
                ps.setLong(1, bounds.maxTotalBytes());
                deleted += ps.executeUpdate();
            }
            return deleted;
        });
    }

    /** A database that does not answer is a 503 for the caller, never a 500; the cause goes to the log. */
    private static <T> Future<T> unavailable(Throwable e) {
        if (e instanceof GatewayException) return Future.failedFuture(e);
        warn("stored responses unavailable: " + e);
        return Future.failedFuture(GatewayException.of(ErrorKind.UNAVAILABLE, "The gateway's store of responses (its database)"
                + " did not answer. Try again shortly.").withCode("response_store_unavailable").withHeaders(Map.of("retry-after", "1")));
    }

    private static void warn(String message) {
        WARNINGS.warn(LOG, message);
    }

    private <T> Future<T> blocking(Callable<T> work) {
        return vertx.executeBlocking(work, false);
    }
}
