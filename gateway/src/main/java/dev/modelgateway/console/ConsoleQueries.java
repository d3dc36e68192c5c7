package dev.modelgateway.console;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The console's reads, each on an index (docs/console.md has their plans): usage from {@code console_rollup}'s
 * primary key or its key index (per user: {@code console_user_rollup}'s), requests from {@code usage_ledger}'s {@code at_ms},
 * {@code (key_id, at_ms)} or {@code (user_id, at_ms)} index walked newest first with a LIMIT and a keyset cursor, a request by its primary key. Blocking.
 */
final class ConsoleQueries {
    private static final String LEDGER_COLUMNS = "id, trace_id, key_id, public_model, answered_model, vendor, input_tokens,"
            + " cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens, output_tokens, reasoning_tokens, attempts,"
            + " status, latency_ms, ttft_ms, at_ms, cost_usd_e10, user_id";

    static final String SPENT_SQL = "SELECT COALESCE(SUM(cost_usd_e10), 0) FROM console_rollup WHERE key_id = ? AND cut = 'k' AND grain = 'd'";

    private ConsoleQueries() {
    }

    static String usageSql(UsageQuery q) {
        String group = q.dimension().column == null ? "''" : q.dimension().column;
        boolean byUser = q.dimension() == UsageQuery.Dimension.USER;
        return "SELECT bucket_ms, " + group + " AS grp, " + RollupColumns.SUMS + " FROM " + (byUser ? "console_user_rollup" : "console_rollup")
                + " WHERE " + (q.keyId() != null ? "key_id = ? AND " : "")
                + (q.visible().all() ? "" : (byUser ? q.visible().sqlByUser() : q.visible().sql()) + " AND ")
                + (byUser ? "" : "cut = ? AND ") + "grain = ? AND bucket_ms >= ? AND bucket_ms < ?"
                + " GROUP BY bucket_ms" + (q.dimension().column == null ? "" : ", " + group) + " ORDER BY bucket_ms";
    }

    static List<UsageRow> usage(Connection c, UsageQuery q) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(usageSql(q))) {
            int i = 1;
            if (q.keyId() != null) st.setString(i++, q.keyId());
            for (String v : q.visible().params()) st.setString(i++, v);
            if (q.cut() != null) st.setString(i++, q.cut());
            st.setString(i++, q.grain().code);
            st.setLong(i++, q.fromMs());
            st.setLong(i, q.toMs());
            List<UsageRow> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    long[] latency = new long[RollupColumns.BUCKETS];
                    long[] ttft = new long[RollupColumns.BUCKETS];
                    int h = 14;
                    for (int b = 0; b < latency.length; b++) latency[b] = rs.getLong(h++);
                    for (int b = 0; b < ttft.length; b++) ttft[b] = rs.getLong(h++);
                    rows.add(new UsageRow(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                            rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11),
                            rs.getLong(12), rs.getLong(13), latency, ttft));
                }
            }
            return rows;
        }
    }

    /** A key's spend as the rollups know it (its day rows of the per-key cut). */
    static long spentE10(Connection c, String keyId) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(SPENT_SQL)) {
            st.setString(1, keyId);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    static String requestsSql(RequestFilter f) {
        StringBuilder sql = new StringBuilder("SELECT " + LEDGER_COLUMNS + " FROM usage_ledger WHERE at_ms >= ?");
        if (f.keyId() != null) sql.append(" AND key_id = ?");
        if (!f.visible().all()) sql.append(" AND ").append(f.visible().sql());
        // at_ms <= ? bounds the index range; the OR only breaks ties within one millisecond
        if (f.beforeAtMs() != null) sql.append(" AND at_ms <= ? AND (at_ms < ? OR id < ?)");
        if (f.model() != null) sql.append(" AND public_model = ?");
        if (f.userId() != null) sql.append(" AND user_id = ?");
        if (f.errors() != null) sql.append(f.errors() ? " AND status >= 400" : " AND status < 400");
        return sql.append(" ORDER BY at_ms DESC, id DESC LIMIT ?").toString();
    }

    static List<LedgerRow> requests(Connection c, RequestFilter f) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(requestsSql(f))) {
            int i = 1;
            st.setLong(i++, f.sinceMs());
            if (f.keyId() != null) st.setString(i++, f.keyId());
            for (String v : f.visible().params()) st.setString(i++, v);
            if (f.beforeAtMs() != null) {
                st.setLong(i++, f.beforeAtMs());
                st.setLong(i++, f.beforeAtMs());
                st.setString(i++, f.beforeId());
            }
            if (f.model() != null) st.setString(i++, f.model());
            if (f.userId() != null) st.setString(i++, f.userId());
            st.setInt(i, f.limit());
            List<LedgerRow> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) rows.add(row(rs));
            }
            return rows;
        }
    }

    /** One ledger row, if the principal sees it. */
    static Optional<LedgerRow> request(Connection c, String id, Visible visible) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT " + LEDGER_COLUMNS + " FROM usage_ledger WHERE id = ? AND " + visible.sql())) {
            st.setString(1, id);
            int i = 2;
            for (String v : visible.params()) st.setString(i++, v);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /**
     * The audit log newest first: on {@code audit_log_target (target_id, at_ms)} for one target,
     * {@code audit_log_action (action, at_ms)} for an action, {@code audit_log_actor (actor, at_ms)} for an actor, {@code audit_log_kind (target_type, at_ms)}
     * for a kind of target, else {@code audit_log_at (at_ms)}, walked backwards and stopped after {@code limit} rows.
     * The break-glass master key's uses ({@code master_key.use}, one per admin call made with it) are shown when
     * asked for by their action, not among the changes: they would push the changes off the page.
     */
    static final String MASTER_KEY_USE = "master_key.use";

    static String auditSql(AuditFilter f) {
        StringBuilder sql = new StringBuilder("SELECT id, at_ms, actor, action, target_type, target_id, before_json, after_json,"
                + " actor_kind, actor_name, actor_role, source_addr"
                + " FROM audit_log WHERE 1 = 1");
        if (f.targetId() != null) sql.append(" AND target_id = ?");
        if (f.beforeAtMs() != null) sql.append(" AND at_ms <= ? AND (at_ms < ? OR id < ?)");
        if (f.targetType() != null) sql.append(" AND target_type = ?");
        if (f.action() != null) sql.append(" AND action = ?");
        else sql.append(" AND action <> '" + MASTER_KEY_USE + "'");
        if (f.actor() != null) sql.append(" AND actor = ?");
        return sql.append(" ORDER BY at_ms DESC, id DESC LIMIT ?").toString();
    }

    static List<AuditRow> audit(Connection c, AuditFilter f) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(auditSql(f))) {
            int i = 1;
            if (f.targetId() != null) st.setString(i++, f.targetId());
            if (f.beforeAtMs() != null) {
                st.setLong(i++, f.beforeAtMs());
                st.setLong(i++, f.beforeAtMs());
                st.setString(i++, f.beforeId());
            }
            if (f.targetType() != null) st.setString(i++, f.targetType());
            if (f.action() != null) st.setString(i++, f.action());
            if (f.actor() != null) st.setString(i++, f.actor());
            st.setInt(i, f.limit());
            List<AuditRow> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    rows.add(new AuditRow(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10), rs.getString(11), rs.getString(12)));
                }
            }
            return rows;
        }
    }

    private static LedgerRow row(ResultSet rs) throws SQLException {
        long ttft = rs.getLong(16);
        Long ttftMs = rs.wasNull() ? null : ttft;
        return new LedgerRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11),
                rs.getLong(12), rs.getInt(13), rs.getInt(14), rs.getLong(15), ttftMs, rs.getLong(17), rs.getLong(18), rs.getString(19));
    }
}
