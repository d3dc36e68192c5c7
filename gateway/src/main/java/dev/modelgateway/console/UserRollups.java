package dev.modelgateway.console;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The per-user rollups, {@code console_user_rollup} (V4__user_rollup.sql; docs/console.md, "Rollups"): the ledger rows
 * that name a user, summed per hour and per day, user, team and key. Written in the transactions of {@link RollupJob}
 * and {@link RepricedRollups}, from the same ledger rows they add to {@code console_rollup}, so the two tables agree.
 */
final class UserRollups {
    private UserRollups() {
    }

    /** Adds the ledger rows matching {@code where} (and naming a user) to both grains: an upsert that sums. */
    static void add(Connection c, String where, Object... params) throws SQLException {
        add(c, "h", RollupJob.HOUR_MS, where, params);
        add(c, "d", RollupJob.DAY_MS, where, params);
    }

    /** Removes both grains' rows in {@code [fromMs, toMs)}. */
    static void remove(Connection c, long fromMs, long toMs) throws SQLException {
        for (String grain : List.of("h", "d")) {
            RollupJob.update(c, "DELETE FROM console_user_rollup WHERE grain = ? AND bucket_ms >= ? AND bucket_ms < ?", grain, fromMs, toMs);
        }
    }

    private static void add(Connection c, String grain, long bucketMs, String where, Object... params) throws SQLException {
        String bucket = "(at_ms / " + bucketMs + ") * " + bucketMs;
        List<String> sets = new ArrayList<>();
        for (String m : RollupColumns.MEASURES) sets.add(m + " = console_user_rollup." + m + " + excluded." + m);
        RollupJob.update(c, "INSERT INTO console_user_rollup (grain, bucket_ms, user_id, team_id, key_id, "
                + String.join(", ", RollupColumns.MEASURES) + ") SELECT '" + grain + "', " + bucket + ", user_id, COALESCE(team_id, ''), key_id, "
                + RollupJob.LEDGER_SUMS + " FROM usage_ledger WHERE user_id IS NOT NULL AND " + where
                + " GROUP BY " + bucket + ", user_id, COALESCE(team_id, ''), key_id"
                + " ON CONFLICT (grain, bucket_ms, user_id, team_id, key_id) DO UPDATE SET " + String.join(", ", sets), params);
    }
}
