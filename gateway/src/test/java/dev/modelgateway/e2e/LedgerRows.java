package dev.modelgateway.e2e;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.testing.Eventually;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Reads the usage ledger straight from the accounts database, as an auditor would. */
public final class LedgerRows {
    /** One {@code usage_ledger} row. */
    public record Row(String traceId, String keyId, String publicModel, String answeredModel, String vendor, Usage usage,
               int attempts, int status, long latencyMs, Long ttftMs, long costE10) {}

    private LedgerRows() {}

    /** The key's rows in time order, waiting (up to {@link Eventually#WITHIN}) for the batch writer to bring {@code expected} of them. */
    public static List<Row> await(String databaseUrl, String keyId, int expected) {
        return await(() -> read(databaseUrl, keyId), expected);
    }

    public static List<Row> read(String databaseUrl, String keyId) {
        return query(databaseUrl, "SELECT * FROM usage_ledger WHERE key_id = ? ORDER BY at_ms, id", keyId, rs -> {
            long ttft = rs.getLong("ttft_ms");
            Long ttftMs = rs.wasNull() ? null : ttft;
            return new Row(rs.getString("trace_id"), rs.getString("key_id"), rs.getString("public_model"),
                    rs.getString("answered_model"), rs.getString("vendor"),
                    new Usage(rs.getLong("input_tokens"), rs.getLong("cache_read_tokens"),
                            rs.getLong("cache_write_5m_tokens"), rs.getLong("cache_write_1h_tokens"),
                            rs.getLong("output_tokens"), rs.getLong("reasoning_tokens")),
                    rs.getInt("attempts"), rs.getInt("status"), rs.getLong("latency_ms"), ttftMs,
                    rs.getLong("cost_usd_e10"));
        });
    }

    /** A public model's rows in time order, each column by name, waiting like {@link #await} for {@code atLeast}. */
    static List<Map<String, Object>> awaitByModel(String databaseUrl, String publicModel, int atLeast) {
        return await(() -> query(databaseUrl, "SELECT * FROM usage_ledger WHERE public_model = ? ORDER BY at_ms", publicModel, rs -> {
            Map<String, Object> row = new LinkedHashMap<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                row.put(rs.getMetaData().getColumnName(i), rs.getObject(i));
            }
            return row;
        }), atLeast);
    }

    private static <T> List<T> await(Supplier<List<T>> read, int expected) {
        return Eventually.value(expected + " ledger rows", read, rows -> rows.size() >= expected);
    }

    private interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private static <T> List<T> query(String databaseUrl, String sql, String arg, RowMapper<T> mapper) {
        try (Connection c = DriverManager.getConnection(databaseUrl); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                List<T> rows = new ArrayList<>();
                while (rs.next()) rows.add(mapper.map(rs));
                return rows;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
