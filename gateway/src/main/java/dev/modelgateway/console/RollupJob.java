package dev.modelgateway.console;

import dev.modelgateway.store.Database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Adds new ledger rows to {@code console_rollup} (docs/console.md, "Rollups"). Ledger ids are version-7 UUIDs
 * whose text starts with the time the row was made (just before the ledger writer's batch wrote it), so the rows
 * after the watermark (the last id added) are the new ones, read through the ledger's primary key. A step takes
 * the rows made up to {@link #SETTLE} ago, a window of them sized to about {@link #BATCH_ROWS}, aggregates them per hour, key,
 * model, vendor and team into {@code console_rollup_batch}, and adds that to every cut of both grains (an upsert that
 * sums), and the rows naming a user to {@code console_user_rollup} ({@link UserRollups}), all in one transaction that first moves the watermark from the value it read: a second instance on the
 * same PostgreSQL waits on that row and then finds it moved, so no row is ever added twice. Blocking: runs on a
 * worker thread.
 */
final class RollupJob {
    static final long HOUR_MS = 3_600_000L;
    static final long DAY_MS = 86_400_000L;
    /**
     * How long after its id was made a ledger row is surely written: the writer's batches take 250 ms, and
     * instances' clocks differ by less than that under NTP. A row written later (a database outage that made the
     * writer retry, a backlog) is in the ledger but not in the rollups.
     */
    static final Duration SETTLE = Duration.ofSeconds(10);
    /** About how many rows a transaction takes while catching up, so the ledger writer is never held up for long. */
    static final int BATCH_ROWS = 100_000;
    private static final long MIN_WINDOW_MS = 1_000;
    /** The longest range a chart shows (400 days): a first run starts no earlier. */
    static final long HISTORY_MS = 400 * DAY_MS;
    private static final long MAX_WINDOW_MS = DAY_MS;
    /** The cut of key x model x vendor x team rows; the others sum it. */
    static final String FULL = "f";
    /** Every cut and the dimensions it keeps ('g': per team, a group of keys). */
    private static final String[][] CUTS = {{FULL, "key_id", "model", "vendor", "team_id"}, {"k", "key_id"}, {"m", "model"},
            {"v", "vendor"}, {"g", "team_id"}, {"t"}};
    private static final List<String> DIMENSIONS = List.of("key_id", "model", "vendor", "team_id");
    /** The measures of {@link RollupColumns#MEASURES}, summed from ledger rows. */
    static final String LEDGER_SUMS = "COUNT(*), SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END), SUM(input_tokens),"
            + " SUM(cache_read_tokens), SUM(cache_write_5m_tokens + cache_write_1h_tokens), SUM(output_tokens), SUM(reasoning_tokens),"
            + " SUM(cost_usd_e10), SUM(latency_ms), COALESCE(SUM(ttft_ms), 0), COUNT(ttft_ms), "
            + RollupColumns.histogram("latency_ms") + ", " + RollupColumns.histogram("ttft_ms");

    private final Database db;
    private final RepricedRollups repriced;
    /**
     * How much ledger time (by id) a step takes: halved when a step found more than {@link #BATCH_ROWS} rows,
     * doubled when it found fewer than a tenth of that, so a step stays near the batch size at any traffic
     * without counting rows first.
     */
    private long windowMs = 60_000;

    RollupJob(Database db) {
        this.db = db;
        this.repriced = new RepricedRollups(db);
    }

    /**
     * Runs steps until the rollups hold every row made before {@code nowMs - SETTLE}, then rebuilds the days of the
     * reprices since the last run ({@link RepricedRollups}).
     */
    void catchUp(long nowMs) throws SQLException {
        while (step(nowMs)) {
            // one transaction per batch
        }
        repriced.catchUp();
    }

    /** One batch in one transaction; true when more rows are waiting. */
    boolean step(long nowMs) throws SQLException {
        return db.transaction(c -> {
            String stored = watermark(c);
            String from = stored;
            long settled = nowMs - SETTLE.toMillis();
            if (from.isEmpty()) {
                String first = string(c, "SELECT MIN(id) FROM usage_ledger");
                if (first == null) return false;
                // no further back than a chart can look (a version-4 id from before time-ordered ids may sort first)
                from = idPrefix(Math.max(madeAt(first), settled - HISTORY_MS));
            }
            long end = Math.min(settled, madeAt(from) + windowMs);
            String to = string(c, "SELECT MAX(id) FROM usage_ledger WHERE id > ? AND id < ?", from, idPrefix(end));
            boolean more = end < settled;
            if (to == null) {
                // nothing in this window: skip it (the watermark moves to its end only when rows follow)
                if (more) windowMs = Math.min(MAX_WINDOW_MS, windowMs * 2);
                return more && skipTo(c, stored, idPrefix(end));
            }
            if (!moveWatermark(c, stored, to)) return false;
            aggregate(c, "id > ? AND id <= ?", from, to);
            long rows = count(c);
            if (rows > BATCH_ROWS) windowMs = Math.max(MIN_WINDOW_MS, windowMs / 2);
            else if (rows < BATCH_ROWS / 10) windowMs = Math.min(MAX_WINDOW_MS, windowMs * 2);
            addToEveryCut(c);
            UserRollups.add(c, "id > ? AND id <= ?", from, to);
            return more;
        });
    }

    /** An empty window: the watermark moves to its end bound, below every id made from then on. */
    private static boolean skipTo(Connection c, String stored, String bound) throws SQLException {
        return bound.compareTo(stored) > 0 && moveWatermark(c, stored, bound);
    }

    /** The ledger rows matching {@code where}, aggregated per hour, key, model, vendor and team into the batch table. */
    static void aggregate(Connection c, String where, Object... params) throws SQLException {
        update(c, "DELETE FROM console_rollup_batch");
        update(c, "INSERT INTO console_rollup_batch SELECT (at_ms / " + HOUR_MS + ") * " + HOUR_MS
                + ", key_id, COALESCE(public_model, ''), COALESCE(vendor, ''), COALESCE(team_id, ''), " + LEDGER_SUMS
                + " FROM usage_ledger WHERE " + where
                + " GROUP BY (at_ms / " + HOUR_MS + ") * " + HOUR_MS + ", key_id, COALESCE(public_model, ''), COALESCE(vendor, ''),"
                + " COALESCE(team_id, '')", params);
    }

    /** Adds the batch to every cut of both grains, then empties it. */
    static void addToEveryCut(Connection c) throws SQLException {
        for (String[] cut : CUTS) {
            add(c, cut, "h", HOUR_MS);
            add(c, cut, "d", DAY_MS);
        }
        update(c, "DELETE FROM console_rollup_batch");
    }

    /** Removes the rollups of every cut and grain in {@code [fromMs, toMs)}, through the primary key. */
    static void remove(Connection c, long fromMs, long toMs) throws SQLException {
        for (String[] cut : CUTS) {
            for (String grain : List.of("h", "d")) {
                update(c, "DELETE FROM console_rollup WHERE cut = ? AND grain = ? AND bucket_ms >= ? AND bucket_ms < ?",
                        cut[0], grain, fromMs, toMs);
            }
        }
    }

    /** The number of requests in the batch (its rows are already grouped). */
    private static long count(Connection c) throws SQLException {
        String n = string(c, "SELECT CAST(COALESCE(SUM(requests), 0) AS VARCHAR(20)) FROM console_rollup_batch");
        return Long.parseLong(n);
    }

    /** When a ledger id, or an {@link #idPrefix}, was made. */
    static long madeAt(String id) {
        return Long.parseLong(id.substring(0, 8) + id.substring(9, 13), 16);
    }

    /** The smallest id text made at {@code ms}: a version-7 UUID's first 48 bits are its Unix time in ms. */
    static String idPrefix(long ms) {
        String hex = String.format("%012x", ms);
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-";
    }

    static long hourStart(long ms) {
        return Math.floorDiv(ms, HOUR_MS) * HOUR_MS;
    }

    static long dayStart(long ms) {
        return Math.floorDiv(ms, DAY_MS) * DAY_MS;
    }

    /** Adds the batch to one cut of one grain: a new row per new bucket and group, else the sums added to it. */
    private static void add(Connection c, String[] cut, String grain, long bucketMs) throws SQLException {
        List<String> keep = List.of(cut).subList(1, cut.length);
        String bucket = "(bucket_ms / " + bucketMs + ") * " + bucketMs;
        List<String> groups = new ArrayList<>(List.of(bucket));
        groups.addAll(keep);
        List<String> sets = new ArrayList<>();
        for (String m : RollupColumns.MEASURES) sets.add(m + " = console_rollup." + m + " + excluded." + m);
        List<String> dims = DIMENSIONS.stream().map(d -> keep.contains(d) ? d : "''").toList();
        update(c, "INSERT INTO console_rollup (" + RollupColumns.ALL + ") SELECT '" + cut[0] + "', '" + grain + "', " + bucket + ", "
                + String.join(", ", dims) + ", " + RollupColumns.SUMS
                // WHERE before GROUP BY: SQLite's upsert after INSERT ... SELECT needs one to parse
                + " FROM console_rollup_batch WHERE 1 = 1 GROUP BY " + String.join(", ", groups)
                + " ON CONFLICT (cut, grain, bucket_ms, key_id, model, vendor, team_id) DO UPDATE SET " + String.join(", ", sets));
    }

    static String watermark(Connection c) throws SQLException {
        return string(c, "SELECT value FROM console_rollup_state WHERE name = 'watermark'");
    }

    /** Compare-and-set: false when another instance moved it since it was read. */
    private static boolean moveWatermark(Connection c, String from, String to) throws SQLException {
        return update(c, "UPDATE console_rollup_state SET value = ? WHERE name = 'watermark' AND value = ?", to, from) == 1;
    }

    static String string(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) st.setObject(i + 1, params[i]);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) st.setObject(i + 1, params[i]);
            return st.executeUpdate();
        }
    }
}
