package dev.modelgateway.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Rebuilds the rollups of the days a reprice changed (docs/console.md, "Rollups"), so that the charts' cost is the
 * ledger's again, as the keys' spent is: a reprice changes ledger rows already added to the rollups. A reprice is
 * found by its audit log entry ({@code reprice}, with its range), after the {@code repriced} mark of
 * {@code console_rollup_state}; each UTC day of its range that the rollups hold is recomputed from the ledger rows up
 * to the watermark, one day per transaction, so the ledger writer is never held up for long; the mark then moves on.
 * A day's transaction first locks the watermark's row, so a rollup step waits for it, or it for the step, and no
 * row is counted twice or missed. Rebuilding a day twice gives the same rows: two instances may both do it.
 * Blocking: runs on the rollup job's worker thread.
 */
final class RepricedRollups {
    private final Database db;

    RepricedRollups(Database db) {
        this.db = db;
    }

    /** Rebuilds the days of every reprice after the mark. */
    void catchUp() throws SQLException {
        while (next()) {
            // one reprice at a time, one day per transaction
        }
    }

    /** The oldest reprice after the mark, rebuilt and marked; false when there is none. */
    private boolean next() throws SQLException {
        String mark = db.call(c -> RollupJob.string(c, "SELECT value FROM console_rollup_state WHERE name = 'repriced'"));
        String[] entry = db.call(c -> {
            try (var st = c.prepareStatement("SELECT id, before_json FROM audit_log WHERE action = 'reprice' AND id > ?"
                    + " ORDER BY id LIMIT 1")) {
                st.setString(1, mark);
                try (var rs = st.executeQuery()) {
                    return rs.next() ? new String[]{rs.getString(1), rs.getString(2)} : null;
                }
            }
        });
        if (entry == null) return false;
        JsonNode range = Json.parseOrNull(entry[1]);
        long from = Instant.parse(range.path("from").asText()).toEpochMilli();
        long to = Instant.parse(range.path("to").asText()).toEpochMilli();
        String watermark = db.call(RollupJob::watermark);
        if (!watermark.isEmpty()) {
            // the rollups hold no day after the watermark's, and none more than a chart's history before it
            long last = RollupJob.madeAt(watermark);
            long first = Math.max(RollupJob.dayStart(from), RollupJob.dayStart(last - RollupJob.HISTORY_MS));
            long end = Math.min(to, last + 1);
            for (long day = first; day < end; day += RollupJob.DAY_MS) {
                long dayStart = day;
                db.transaction(c -> {
                    rebuild(c, dayStart);
                    return null;
                });
            }
        }
        return db.transaction(c -> RollupJob.update(c, "UPDATE console_rollup_state SET value = ? WHERE name = 'repriced'"
                + " AND value = ?", entry[0], mark)) == 1;
    }

    /** One day of every cut and grain, and of the per-user rollups, anew from the ledger rows the rollups hold. */
    private static void rebuild(Connection c, long day) throws SQLException {
        RollupJob.update(c, "UPDATE console_rollup_state SET value = value WHERE name = 'watermark'");
        String watermark = RollupJob.watermark(c);
        RollupJob.remove(c, day, day + RollupJob.DAY_MS);
        UserRollups.remove(c, day, day + RollupJob.DAY_MS);
        RollupJob.aggregate(c, "at_ms >= ? AND at_ms < ? AND id <= ?", day, day + RollupJob.DAY_MS, watermark);
        RollupJob.addToEveryCut(c);
        UserRollups.add(c, "at_ms >= ? AND at_ms < ? AND id <= ?", day, day + RollupJob.DAY_MS, watermark);
    }
}
