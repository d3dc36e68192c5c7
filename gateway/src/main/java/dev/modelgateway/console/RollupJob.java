package dev.modelgateway.console;

import dev.modelgateway.store.Database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * Keeps {@code console_rollup} up to date from {@code usage_ledger} (docs/console.md, "Rollups"). An hour is
 * rebuilt whole from the ledger's {@code at_ms} index (delete its rows, insert its aggregate), never incremented,
 * so that running a step twice, or on two instances at once, never counts a row twice. The watermark
 * ({@code cursor}) is the first hour still open to late rows: a ledger row is written when its call ends, up to
 * {@link #LATENESS} after the {@code at_ms} it carries, so every step rebuilds the hours from
 * {@code now - LATENESS} to now; hours before it are final. A new or long-stopped gateway catches up from the
 * cursor (or the ledger's first row) a day per step. Blocking: runs on a worker thread.
 */
final class RollupJob {
    static final long HOUR_MS = 3_600_000L;
    static final long DAY_MS = 86_400_000L;
    /** How long after its {@code at_ms} a ledger row may still be written: the longest call, with margin. */
    static final Duration LATENESS = Duration.ofHours(1);
    private static final long CATCH_UP_MS = DAY_MS;
    private static final String CURSOR = "cursor";
    /** The cut of key x model x vendor rows, built from the ledger; the others are built from it. */
    static final String FULL = "f";
    /** The other cuts and the one dimension each keeps ('' for the total). */
    private static final String[][] CUTS = {{"k", "key_id"}, {"m", "model"}, {"v", "vendor"}, {"t", ""}};

    private final Database db;

    RollupJob(Database db) {
        this.db = db;
    }

    /** Runs steps until the rollups reach {@code nowMs}. */
    void catchUp(long nowMs) throws SQLException {
        while (step(nowMs)) {
            // each step is its own transaction, so the ledger writer is never held up for long
        }
    }

    /** One step in one transaction; true when hours before the open window are still to be built. */
    boolean step(long nowMs) throws SQLException {
        return db.transaction(c -> {
            long open = hourStart(nowMs - LATENESS.toMillis());
            Long cursor = cursor(c);
            long from = cursor != null ? cursor : firstHour(c, open);
            boolean catchingUp = from < open;
            long to = catchingUp ? Math.min(open, from + CATCH_UP_MS) : hourStart(nowMs) + HOUR_MS;
            if (!catchingUp) from = open;
            rebuildHours(c, from, to);
            rebuildDays(c, dayStart(from), dayStart(to - 1) + DAY_MS);
            boolean more = catchingUp && to < open;
            saveCursor(c, cursor != null, more ? to : open);
            return more;
        });
    }

    static long hourStart(long ms) {
        return Math.floorDiv(ms, HOUR_MS) * HOUR_MS;
    }

    static long dayStart(long ms) {
        return Math.floorDiv(ms, DAY_MS) * DAY_MS;
    }

    private static Long cursor(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT value FROM console_rollup_state WHERE name = ?")) {
            st.setString(1, CURSOR);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /** The hour of the ledger's first row (read from the at_ms index), or {@code open} for an empty ledger. */
    private static long firstHour(Connection c, long open) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT MIN(at_ms) FROM usage_ledger");
             ResultSet rs = st.executeQuery()) {
            rs.next();
            long first = rs.getLong(1);
            return rs.wasNull() ? open : Math.min(open, hourStart(first));
        }
    }

    private static void saveCursor(Connection c, boolean exists, long value) throws SQLException {
        String sql = exists ? "UPDATE console_rollup_state SET value = ? WHERE name = ?"
                : "INSERT INTO console_rollup_state (value, name) VALUES (?, ?)";
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setLong(1, value);
            st.setString(2, CURSOR);
            st.executeUpdate();
        }
    }

    /** The hours' full cut from the ledger (its at_ms index), then the other cuts from the full cut. */
    private static void rebuildHours(Connection c, long from, long to) throws SQLException {
        delete(c, "h", from, to);
        String sql = "INSERT INTO console_rollup (" + RollupColumns.ALL + ") SELECT '" + FULL + "', 'h', (at_ms / " + HOUR_MS + ") * " + HOUR_MS
                + ", key_id, COALESCE(public_model, ''), COALESCE(vendor, ''), COUNT(*),"
                + " SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END), SUM(input_tokens), SUM(cache_read_tokens),"
                + " SUM(cache_write_5m_tokens + cache_write_1h_tokens), SUM(output_tokens), SUM(reasoning_tokens),"
                + " SUM(cost_usd_e10), SUM(latency_ms), COALESCE(SUM(ttft_ms), 0), COUNT(ttft_ms), "
                + RollupColumns.histogram("latency_ms") + ", " + RollupColumns.histogram("ttft_ms")
                + " FROM usage_ledger WHERE at_ms >= ? AND at_ms < ? GROUP BY 3, 4, 5, 6";
        update(c, sql, from, to);
        for (String[] cut : CUTS) {
            String keep = cut[1];
            update(c, "INSERT INTO console_rollup (" + RollupColumns.ALL + ") SELECT '" + cut[0] + "', 'h', bucket_ms, "
                    + (keep.equals("key_id") ? "key_id" : "''") + ", " + (keep.equals("model") ? "model" : "''") + ", "
                    + (keep.equals("vendor") ? "vendor" : "''") + ", " + RollupColumns.SUMS
                    + " FROM console_rollup WHERE cut = '" + FULL + "' AND grain = 'h' AND bucket_ms >= ? AND bucket_ms < ?"
                    + " GROUP BY bucket_ms" + (keep.isEmpty() ? "" : ", " + keep), from, to);
        }
    }

    /** A day is the sum of its hours, cut by cut. */
    private static void rebuildDays(Connection c, long from, long to) throws SQLException {
        delete(c, "d", from, to);
        update(c, "INSERT INTO console_rollup (" + RollupColumns.ALL + ") SELECT cut, 'd', (bucket_ms / " + DAY_MS + ") * " + DAY_MS
                + ", key_id, model, vendor, " + RollupColumns.SUMS
                + " FROM console_rollup WHERE grain = 'h' AND bucket_ms >= ? AND bucket_ms < ? GROUP BY 1, 3, 4, 5, 6", from, to);
    }

    private static void delete(Connection c, String grain, long from, long to) throws SQLException {
        for (String cut : List.of(FULL, "k", "m", "v", "t")) {
            update(c, "DELETE FROM console_rollup WHERE cut = '" + cut + "' AND grain = '" + grain + "' AND bucket_ms >= ? AND bucket_ms < ?", from, to);
        }
    }

    private static void update(Connection c, String sql, long from, long to) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setLong(1, from);
            st.setLong(2, to);
            st.executeUpdate();
        }
    }
}
