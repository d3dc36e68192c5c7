package dev.modelgateway.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/** JDBC on the accounts database's {@code transcription_tasks} table. Every method blocks: callers use a worker. */
final class TranscriptionTaskStore {
    private static final String COLUMNS = "id, key_id, public_model, state, form_json, file_name, file_type, %s, "
            + "result_json, error_json, attempts, created_at_ms, started_at_ms, finished_at_ms";

    private final Database db;

    TranscriptionTaskStore(Database db) {
        this.db = db;
    }

    void insert(TranscriptionTask t) throws SQLException {
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO transcription_tasks (" + COLUMNS.formatted("audio_b64")
                    + ", updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, t.id());
                ps.setString(2, t.keyId());
                ps.setString(3, t.model());
                ps.setString(4, t.state());
                ps.setString(5, t.form().toString());
                ps.setString(6, t.fileName());
                ps.setString(7, t.fileType());
                ps.setString(8, Base64.getEncoder().encodeToString(t.audio()));
                ps.setNull(9, Types.VARCHAR);
                ps.setNull(10, Types.VARCHAR);
                ps.setInt(11, 0);
                ps.setLong(12, t.createdAtMs());
                ps.setNull(13, Types.BIGINT);
                ps.setNull(14, Types.BIGINT);
                ps.setLong(15, t.createdAtMs());
                return ps.executeUpdate();
            }
        });
    }

    /** Moves a queued task to running; false when another worker (or instance) claimed it first. */
    boolean claim(String id, long now) throws SQLException {
        return update("UPDATE transcription_tasks SET state = 'running', attempts = attempts + 1, started_at_ms = ?, "
                + "updated_at_ms = ? WHERE id = ? AND state = 'queued'", now, now, id) == 1;
    }

    void succeed(String id, JsonNode result, long now) throws SQLException {
        update("UPDATE transcription_tasks SET state = 'succeeded', result_json = ?, audio_b64 = NULL, finished_at_ms = ?, "
                + "updated_at_ms = ? WHERE id = ?", result.toString(), now, now, id);
    }

    void fail(String id, JsonNode error, long now) throws SQLException {
        update("UPDATE transcription_tasks SET state = 'failed', error_json = ?, audio_b64 = NULL, finished_at_ms = ?, "
                + "updated_at_ms = ? WHERE id = ?", error.toString(), now, now, id);
    }

    void requeue(String id, long now) throws SQLException {
        update("UPDATE transcription_tasks SET state = 'queued', updated_at_ms = ? WHERE id = ? AND state = 'running'", now, id);
    }

    /**
     * Tasks whose process stopped: running ones started before {@code startedBefore} go back to the queue.
     *
     * @return the ids of the queued tasks last changed before {@code updatedBefore}, oldest first
     */
    List<String> requeueAbandoned(long startedBefore, long updatedBefore, long now) throws SQLException {
        update("UPDATE transcription_tasks SET state = 'queued', updated_at_ms = ? WHERE state = 'running' AND started_at_ms < ?",
                now, startedBefore);
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM transcription_tasks WHERE state = 'queued' "
                    + "AND updated_at_ms < ? ORDER BY created_at_ms")) {
                ps.setLong(1, updatedBefore);
                try (ResultSet rs = ps.executeQuery()) {
                    List<String> ids = new ArrayList<>();
                    while (rs.next()) ids.add(rs.getString(1));
                    return ids;
                }
            }
        });
    }

    /** @return how many tasks ended before {@code finishedBefore} were deleted */
    int deleteFinished(long finishedBefore) throws SQLException {
        return update("DELETE FROM transcription_tasks WHERE state IN ('succeeded', 'failed') AND finished_at_ms < ?", finishedBefore);
    }

    /** The key's tasks not ended yet (each holds its audio). */
    int unfinished(String keyId) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM transcription_tasks WHERE key_id = ? "
                    + "AND state IN ('queued', 'running')")) {
                ps.setString(1, keyId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    /** @param withAudio false for status reads, which never need the audio */
    Optional<TranscriptionTask> find(String id, boolean withAudio) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS.formatted(withAudio ? "audio_b64" : "NULL")
                    + " FROM transcription_tasks WHERE id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.empty();
                    String audio = rs.getString(8);
                    return Optional.of(new TranscriptionTask(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            (ObjectNode) Json.parseOrNull(rs.getString(5)), rs.getString(6), rs.getString(7),
                            audio == null ? null : Base64.getDecoder().decode(audio), json(rs.getString(9)), json(rs.getString(10)),
                            rs.getInt(11), rs.getLong(12), nullableLong(rs, 13), nullableLong(rs, 14)));
                }
            }
        });
    }

    private int update(String sql, Object... args) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
                return ps.executeUpdate();
            }
        });
    }

    private static JsonNode json(String s) {
        return s == null ? null : Json.parseOrNull(s);
    }

    private static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }
}
