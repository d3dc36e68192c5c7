package dev.modelgateway.console;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.store.Database;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./gw console-seed}: fills a database's ledger with synthetic rows (10 million by default, spread over
 * the last 30 days, 50 keys in 10 teams, 8 models) and its audit log with {@link #AUDIT_ROWS} entries, adds the
 * ledger to the rollups, then times each console screen's server work (its
 * query and its JSON) and prints the timing table and the query plans that docs/console.md shows. The rows are
 * generated inside the database by one INSERT ... SELECT per million (a recursive CTE on SQLite,
 * generate_series on PostgreSQL), so seeding is bound by the database's own insert speed.
 */
public final class ConsoleTimings {
    static final String[] MODELS = {"platform/vendorA-sonnet-4.5", "platform/vendorA-haiku-4.5", "platform/vendorB-5.5",
            "platform/vendorB-5.5-mini", "platform/vendorC-3-pro", "platform/vendorC-3-flash", "vendorD-plus-latest", "vendorD-max-latest"};
    static final String[] VENDORS = {"A", "A", "B", "B", "C", "C", "D", "D"};
    static final int KEYS = 50;
    /** Key k is in team k % TEAMS. */
    static final int TEAMS = 10;
    static final int AUDIT_ROWS = 100_000;
    private static final int CHUNK = 1_000_000;
    private static final int RUNS = 7;

    private final Database db;
    private final PrintStream out;

    private ConsoleTimings(Database db, PrintStream out) {
        this.db = db;
        this.out = out;
    }

    /** Arguments: {@code --database <jdbc url>} (required), {@code --rows N}, {@code --days N}. */
    public static void main(String[] args) throws SQLException {
        String url = null;
        long rows = 10_000_000;
        int days = 30;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--database" -> url = args[i + 1];
                case "--rows" -> rows = Long.parseLong(args[i + 1]);
                case "--days" -> days = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (want --database, --rows, --days)");
            }
        }
        if (url == null) throw new IllegalArgumentException("--database <jdbc url> is required");
        try (Database db = Database.open(url, Accounts.SCHEMA)) {
            db.migrate(Console.SCHEMA);
            ConsoleTimings t = new ConsoleTimings(db, System.out);
            long now = System.currentTimeMillis();
            t.seed(rows, days, now);
            t.seedAudit(days, now);
            // after a bulk load, as autovacuum would soon: the planner's statistics of the new rows
            if (db.vendor() == Database.Vendor.POSTGRESQL) db.call(c -> c.createStatement().execute("ANALYZE usage_ledger"));
            long started = System.nanoTime();
            new RollupJob(db).catchUp(now);
            t.out.printf(Locale.ROOT, "rollups built in %.1f s%n", (System.nanoTime() - started) / 1e9);
            t.time(now);
        }
    }

    private void seed(long rows, int days, long now) throws SQLException {
        long have = db.call(c -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM usage_ledger WHERE trace_id LIKE 'trace-seed-%'")) {
                rs.next();
                return rs.getLong(1);
            }
        });
        if (have >= rows) {
            out.printf(Locale.ROOT, "%,d seeded rows present%n", have);
            return;
        }
        long start = now - days * RollupJob.DAY_MS;
        long stepMs = Math.max(1, days * RollupJob.DAY_MS / rows);
        boolean sqlite = db.vendor() == Database.Vendor.SQLITE;
        for (long from = have; from < rows; from += CHUNK) {
            long to = Math.min(rows, from + CHUNK) - 1;
            long t0 = System.nanoTime();
            long first = from;
            db.transaction(c -> {
                try (PreparedStatement st = c.prepareStatement(seedSql(sqlite))) {
                    st.setLong(1, first);
                    st.setLong(2, to);
                    st.setLong(3, start);
                    st.setLong(4, stepMs);
                    return st.executeUpdate();
                }
            });
            out.printf(Locale.ROOT, "seeded %,d rows (%.1f s)%n", to + 1, (System.nanoTime() - t0) / 1e9);
        }
    }

    /** Row i: at start + i x step; key, model, status, latency, tokens spread by i's residues. Parameters: first i, last i, start, step. */
    private static String seedSql(boolean sqlite) {
        String at = "(? + s.i * ?)";
        String model = "CASE s.i % 8" + cases(MODELS) + " END";
        String vendor = "CASE s.i % 8" + cases(VENDORS) + " END";
        // a version-7 UUID's text, as the ledger writer makes them: the time first (here the call's), then i
        String id = sqlite
                ? "substr(printf('%012x', at_ms), 1, 8) || '-' || substr(printf('%012x', at_ms), 9, 4) || '-7000-8000-' || printf('%012x', s.i)"
                : "substr(lpad(to_hex(at_ms), 12, '0'), 1, 8) || '-' || substr(lpad(to_hex(at_ms), 12, '0'), 9, 4) || '-7000-8000-' || lpad(to_hex(s.i), 12, '0')";
        String key = "'key_seed_' || ((s.i * 7) % " + KEYS + ")";
        String team = "'team_seed_' || (((s.i * 7) % " + KEYS + ") % " + TEAMS + ")";
        String select = "SELECT " + id + ", 'trace-seed-' || s.i, " + key + ", " + model + ", " + model + ", " + vendor + ","
                + " 100 + s.i % 2000, CASE WHEN s.i % 3 = 0 THEN 500 ELSE 0 END, CASE WHEN s.i % 11 = 0 THEN 300 ELSE 0 END, 0,"
                + " 50 + s.i % 700, CASE WHEN s.i % 5 = 0 THEN 20 ELSE 0 END, 1 + CASE WHEN s.i % 40 = 0 THEN 1 ELSE 0 END,"
                + " CASE WHEN s.i % 50 = 0 THEN 500 WHEN s.i % 97 = 0 THEN 429 ELSE 200 END, 200 + (s.i * 37) % 5000,"
                + " CASE WHEN s.i % 3 = 1 THEN NULL ELSE 50 + (s.i * 13) % 1500 END, at_ms, (100 + s.i % 2000) * 30 + (50 + s.i % 700) * 150, "
                + team;
        String columns = "INSERT INTO usage_ledger (id, trace_id, key_id, public_model, answered_model, vendor, input_tokens,"
                + " cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens, output_tokens, reasoning_tokens, attempts, status,"
                + " latency_ms, ttft_ms, at_ms, cost_usd_e10, team_id) ";
        if (sqlite) {
            return "WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?),"
                    + " s(i, at_ms) AS (SELECT i, " + at.replace("s.i", "i") + " FROM n) "
                    + columns + select + " FROM s";
        }
        return columns + select + " FROM generate_series(?::bigint, ?::bigint) AS g,"
                + " LATERAL (SELECT g AS i, ?::bigint + g * ?::bigint AS at_ms) AS s";
    }

    /** Administrative changes over the days, newest last: key and team creations, updates and deletions. */
    private void seedAudit(int days, long now) throws SQLException {
        if (count("audit_log") >= AUDIT_ROWS) return;
        boolean sqlite = db.vendor() == Database.Vendor.SQLITE;
        String select = " SELECT 'audit-seed-' || s.i, CAST(? AS BIGINT) + s.i * CAST(? AS BIGINT), 'master', CASE s.i % 4 WHEN 0 THEN 'key.create' WHEN 1 THEN 'key.update'"
                + " WHEN 2 THEN 'team.update' ELSE 'key.delete' END, CASE s.i % 4 WHEN 2 THEN 'team' ELSE 'key' END,"
                + " CASE s.i % 4 WHEN 2 THEN 'team_seed_' || (s.i % " + TEAMS + ") ELSE 'key_seed_' || (s.i % " + KEYS + ") END,"
                + " '{\"rpm\":60}', '{\"rpm\":120}'";
        String insert = "INSERT INTO audit_log (id, at_ms, actor, action, target_type, target_id, before_json, after_json)";
        String sql = sqlite
                ? "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < " + AUDIT_ROWS + ") " + insert + select + " FROM s"
                : insert + select + " FROM generate_series(1, " + AUDIT_ROWS + ") AS s(i)";
        db.transaction(c -> {
            try (PreparedStatement st = c.prepareStatement(sql)) {
                st.setLong(1, now - days * RollupJob.DAY_MS);
                st.setLong(2, days * RollupJob.DAY_MS / AUDIT_ROWS);
                return st.executeUpdate();
            }
        });
        if (!sqlite) db.call(c -> c.createStatement().execute("ANALYZE audit_log"));
        out.printf(Locale.ROOT, "seeded %,d audit log entries%n", AUDIT_ROWS);
    }

    private static String cases(String[] values) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.length; i++) b.append(" WHEN ").append(i).append(" THEN '").append(values[i]).append('\'');
        return b.toString();
    }

    /** One screen's server work: its query (or queries) and its JSON. */
    private interface Screen {
        int run(Connection c) throws SQLException;
    }

    private record Timed(String screen, String sql, List<Object> params, Screen work) {
    }

    private void time(long now) throws SQLException {
        String key = "key_seed_7";
        List<LedgerRow> firstPage = db.call(c -> ConsoleQueries.requests(c, new RequestFilter(null, null, null, now - RollupJob.DAY_MS, null, null, 50)));
        LedgerRow last = firstPage.getLast();
        List<Timed> screens = new ArrayList<>();
        usage(screens, "Usage, 30 days by day, all", new UsageQuery(UsageQuery.Grain.DAY, RollupJob.dayStart(now) - 29 * RollupJob.DAY_MS, now, UsageQuery.Dimension.NONE, null));
        usage(screens, "Usage, 30 days by day, per model", new UsageQuery(UsageQuery.Grain.DAY, RollupJob.dayStart(now) - 29 * RollupJob.DAY_MS, now, UsageQuery.Dimension.MODEL, null));
        usage(screens, "Usage, 30 days by day, per key", new UsageQuery(UsageQuery.Grain.DAY, RollupJob.dayStart(now) - 29 * RollupJob.DAY_MS, now, UsageQuery.Dimension.KEY, null));
        usage(screens, "Usage, 30 days by day, per team", new UsageQuery(UsageQuery.Grain.DAY, RollupJob.dayStart(now) - 29 * RollupJob.DAY_MS, now, UsageQuery.Dimension.TEAM, null));
        usage(screens, "Usage, 7 days by hour, per vendor", new UsageQuery(UsageQuery.Grain.HOUR, RollupJob.hourStart(now) - 7 * RollupJob.DAY_MS, now, UsageQuery.Dimension.VENDOR, null));
        usage(screens, "Usage, 24 hours by hour, per key", new UsageQuery(UsageQuery.Grain.HOUR, RollupJob.hourStart(now) - RollupJob.DAY_MS, now, UsageQuery.Dimension.KEY, null));
        usage(screens, "A key's own usage, 30 days by day, per model", new UsageQuery(UsageQuery.Grain.DAY, RollupJob.dayStart(now) - 29 * RollupJob.DAY_MS, now, UsageQuery.Dimension.MODEL, key));
        screens.add(new Timed("A key's own limits and spend (`me`)", ConsoleQueries.SPENT_SQL,
                List.of(key), c -> ConsoleQueries.spentE10(c, key) >= 0 ? 1 : 0));
        requests(screens, "Requests, first page", new RequestFilter(null, null, null, now - RollupJob.DAY_MS, null, null, 50));
        requests(screens, "Requests, next page (keyset)", new RequestFilter(null, null, null, now - RollupJob.DAY_MS, last.atMs(), last.id(), 50));
        requests(screens, "Requests of one key", new RequestFilter(key, null, null, now - RollupJob.DAY_MS, null, null, 50));
        requests(screens, "Requests of one model", new RequestFilter(null, MODELS[2], null, now - RollupJob.DAY_MS, null, null, 50));
        requests(screens, "Requests of a model without calls (worst case: the 24 h window)", new RequestFilter(null, "platform/none", null, now - RollupJob.DAY_MS, null, null, 50));
        requests(screens, "Failed requests (2.9 %)", new RequestFilter(null, null, true, now - RollupJob.DAY_MS, null, null, 50));
        audit(screens, "Audit log, first page", new AuditFilter(null, null, null, null, null, null, 50));
        audit(screens, "Audit log of one key", new AuditFilter("key_seed_7", null, null, null, null, null, 50));
        audit(screens, "Audit log, team changes", new AuditFilter(null, "team", null, null, null, null, 50));
        audit(screens, "Audit log, one action", new AuditFilter(null, null, "key.update", null, null, null, 50));
        audit(screens, "Audit log, an action without entries", new AuditFilter(null, null, "alerts.update", null, null, null, 50));
        String id = firstPage.get(17).id();
        screens.add(new Timed("A request's page", "SELECT ... FROM usage_ledger WHERE id = ?", List.of(id),
                c -> ConsoleQueries.request(c, id, Visible.ALL).map(r -> ConsoleApi.requestJson(r).toString().isEmpty() ? 0 : 1).orElse(0)));

        out.printf(Locale.ROOT, "%n%s, %,d ledger rows; median of %d runs after one warm-up; load average %s%n%n",
                db.vendor(), count("usage_ledger"), RUNS, loadAverage());
        out.println("| screen | rows | median ms | max ms |");
        out.println("|---|---:|---:|---:|");
        for (Timed s : screens) {
            long[] ms = new long[RUNS];
            int rows = db.call(s.work()::run);
            for (int i = 0; i < RUNS; i++) {
                long t0 = System.nanoTime();
                db.call(s.work()::run);
                ms[i] = (System.nanoTime() - t0) / 1_000;
            }
            Arrays.sort(ms);
            out.printf(Locale.ROOT, "| %s | %,d | %.1f | %.1f |%n", s.screen(), rows, ms[RUNS / 2] / 1000.0, ms[RUNS - 1] / 1000.0);
        }
        out.println();
        for (Timed s : screens) {
            if (s.sql().contains("...")) continue;
            out.println("**" + s.screen() + "**");
            out.println("```");
            out.println(plan(s.sql(), s.params()));
            out.println("```");
        }
    }

    private static void usage(List<Timed> screens, String name, UsageQuery q) {
        List<Object> params = new ArrayList<>();
        if (q.keyId() != null) params.add(q.keyId());
        params.addAll(List.of(q.cut(), q.grain().code, q.fromMs(), q.toMs()));
        screens.add(new Timed(name, ConsoleQueries.usageSql(q), params, c -> {
            List<UsageRow> rows = ConsoleQueries.usage(c, q);
            rows.forEach(r -> ConsoleApi.usageJson(r).toString());
            return rows.size();
        }));
    }

    private static void requests(List<Timed> screens, String name, RequestFilter f) {
        List<Object> params = new ArrayList<>();
        params.add(f.sinceMs());
        if (f.keyId() != null) params.add(f.keyId());
        if (f.beforeAtMs() != null) params.addAll(List.of(f.beforeAtMs(), f.beforeAtMs(), f.beforeId()));
        if (f.model() != null) params.add(f.model());
        params.add(f.limit());
        screens.add(new Timed(name, ConsoleQueries.requestsSql(f), params, c -> {
            List<LedgerRow> rows = ConsoleQueries.requests(c, f);
            rows.forEach(r -> ConsoleApi.requestJson(r).toString());
            return rows.size();
        }));
    }

    private static void audit(List<Timed> screens, String name, AuditFilter f) {
        List<Object> params = new ArrayList<>();
        if (f.targetId() != null) params.add(f.targetId());
        if (f.targetType() != null) params.add(f.targetType());
        if (f.action() != null) params.add(f.action());
        params.add(f.limit());
        screens.add(new Timed(name, ConsoleQueries.auditSql(f), params, c -> {
            List<AuditRow> rows = ConsoleQueries.audit(c, f);
            rows.forEach(r -> ConsoleApi.auditJson(r).toString());
            return rows.size();
        }));
    }

    private String plan(String sql, List<Object> params) throws SQLException {
        String explain = (db.vendor() == Database.Vendor.SQLITE ? "EXPLAIN QUERY PLAN " : "EXPLAIN ") + sql;
        return db.call(c -> {
            try (PreparedStatement st = c.prepareStatement(explain)) {
                for (int i = 0; i < params.size(); i++) st.setObject(i + 1, params.get(i));
                StringBuilder plan = new StringBuilder();
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        if (plan.length() > 0) plan.append('\n');
                        plan.append(db.vendor() == Database.Vendor.SQLITE ? rs.getString(4) : rs.getString(1));
                    }
                }
                return plan.toString();
            }
        });
    }

    private long count(String table) throws SQLException {
        return db.call(c -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
