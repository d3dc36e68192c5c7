package dev.modelgateway.console;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.store.Database;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The rollups against ledger rows written straight into SQLite: sums, histograms, idempotence, late rows. */
class RollupJobTest {
    static final long T0 = 1_795_000_000_000L / RollupJob.DAY_MS * RollupJob.DAY_MS; // a UTC midnight in 2026

    @TempDir
    Path dir;
    Database db;
    RollupJob job;
    int ids;

    /** The accounts database to run against; PostgreSQL in {@link RollupJobPostgresTest}. */
    String databaseUrl() throws SQLException {
        return "jdbc:sqlite:" + dir.resolve("accounts.db");
    }

    @BeforeEach
    void open() throws SQLException {
        db = Database.open(databaseUrl(), Accounts.SCHEMA);
        db.migrate(Console.SCHEMA);
        job = new RollupJob(db);
    }

    @AfterEach
    void close() throws SQLException {
        db.close();
    }

    /** A row written just after its call began. */
    void ledger(long atMs, String key, String model, int status, long latencyMs, Long ttftMs, long input, long output, long cost) throws SQLException {
        ledger(atMs + latencyMs, atMs, key, model, status, latencyMs, ttftMs, input, output, cost);
    }

    /** A row whose id was made at {@code madeMs} (a version-7 UUID's text, as the ledger writer makes them). */
    void ledger(long madeMs, long atMs, String key, String model, int status, long latencyMs, Long ttftMs, long input, long output, long cost) throws SQLException {
        db.call(c -> {
            try (PreparedStatement st = c.prepareStatement(INSERT)) {
                bind(st, madeMs, atMs, key, model, status, latencyMs, ttftMs, input, output, cost);
                return st.executeUpdate();
            }
        });
    }

    static final String INSERT = "INSERT INTO usage_ledger (id, trace_id, key_id, public_model, answered_model,"
            + " vendor, input_tokens, cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens, output_tokens, reasoning_tokens,"
            + " attempts, status, latency_ms, ttft_ms, at_ms, cost_usd_e10) VALUES (?, 't', ?, ?, ?, 'B', ?, 10, 1, 2, ?, 3, 1, ?, ?, ?, ?, ?)";

    void bind(PreparedStatement st, long madeMs, long atMs, String key, String model, int status, long latencyMs, Long ttftMs,
              long input, long output, long cost) throws SQLException {
        st.setString(1, String.format("%08x-%04x-7000-8000-%012x", madeMs >>> 16, madeMs & 0xffff, ids++));
        st.setString(2, key);
        st.setString(3, model);
        st.setString(4, model);
        st.setLong(5, input);
        st.setLong(6, output);
        st.setInt(7, status);
        st.setLong(8, latencyMs);
        if (ttftMs == null) st.setNull(9, java.sql.Types.BIGINT);
        else st.setLong(9, ttftMs);
        st.setLong(10, atMs);
        st.setLong(11, cost);
    }

    List<UsageRow> usage(UsageQuery.Grain grain, UsageQuery.Dimension dim, String key) throws SQLException {
        return db.call(c -> ConsoleQueries.usage(c, new UsageQuery(grain, T0 - RollupJob.DAY_MS, T0 + 3 * RollupJob.DAY_MS, dim, key)));
    }

    @Test
    void hoursAndDaysSumTheLedgerWithHistogramsAndErrors() throws SQLException {
        ledger(T0 + 1_000, "k1", "m1", 200, 90, 40L, 100, 20, 5_000);
        ledger(T0 + 2_000, "k1", "m1", 500, 3_000, null, 50, 0, 0);
        ledger(T0 + RollupJob.HOUR_MS + 5, "k2", "m2", 200, 700, 300L, 7, 8, 9);
        ledger(T0 + RollupJob.DAY_MS + 5, "k1", "m2", 200, 70_000, 80L, 1, 1, 1);
        job.catchUp(T0 + 2 * RollupJob.DAY_MS);

        List<UsageRow> hours = usage(UsageQuery.Grain.HOUR, UsageQuery.Dimension.NONE, null);
        assertThat(hours).extracting(UsageRow::bucketMs).containsExactly(T0, T0 + RollupJob.HOUR_MS, T0 + RollupJob.DAY_MS);
        UsageRow first = hours.getFirst();
        assertThat(first.requests()).isEqualTo(2);
        assertThat(first.errors()).isEqualTo(1);
        assertThat(first.inputTokens()).isEqualTo(150);
        assertThat(first.cacheReadTokens()).isEqualTo(20);
        assertThat(first.cacheWriteTokens()).isEqualTo(6);
        assertThat(first.costE10()).isEqualTo(5_000);
        assertThat(first.latencySumMs()).isEqualTo(3_090);
        assertThat(first.ttftCount()).isEqualTo(1);
        assertThat(first.latency()).containsExactly(1, 0, 0, 0, 0, 1, 0, 0, 0, 0);
        assertThat(first.ttft()).containsExactly(1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        assertThat(hours.getLast().latency()[9]).isEqualTo(1);

        List<UsageRow> days = usage(UsageQuery.Grain.DAY, UsageQuery.Dimension.MODEL, null);
        assertThat(days).extracting(r -> r.bucketMs() + "/" + r.group() + "/" + r.requests())
                .containsExactly(T0 + "/m1/2", T0 + "/m2/1", (T0 + RollupJob.DAY_MS) + "/m2/1");
        assertThat(usage(UsageQuery.Grain.DAY, UsageQuery.Dimension.NONE, "k2")).extracting(UsageRow::requests).containsExactly(1L);
        long spent = db.call(c -> ConsoleQueries.spentE10(c, "k1"));
        assertThat(spent).isEqualTo(5_001);
    }

    @Test
    void theTeamCutSumsEachTeamsKeysAndAKeysOwnViewKeepsItsTeam() throws SQLException {
        ledger(T0 + 1_000, "k1", "m1", 200, 90, 40L, 100, 20, 5_000);
        ledger(T0 + 2_000, "k2", "m2", 200, 90, 40L, 10, 2, 7);
        ledger(T0 + 3_000, "k3", "m1", 500, 90, 40L, 1, 0, 0);
        ledger(T0 + 4_000, "k4", "m1", 200, 90, 40L, 1, 1, 1);
        db.call(c -> c.createStatement().executeUpdate("UPDATE usage_ledger SET team_id = 'team_a' WHERE key_id IN ('k1', 'k2')"));
        db.call(c -> c.createStatement().executeUpdate("UPDATE usage_ledger SET team_id = 'team_b' WHERE key_id = 'k3'"));
        job.catchUp(T0 + RollupJob.DAY_MS);

        assertThat(usage(UsageQuery.Grain.DAY, UsageQuery.Dimension.TEAM, null))
                .extracting(r -> r.group() + "/" + r.requests() + "/" + r.errors() + "/" + r.costE10())
                .containsExactlyInAnyOrder("team_a/2/0/5007", "team_b/1/1/0", "/1/0/1");
        assertThat(usage(UsageQuery.Grain.HOUR, UsageQuery.Dimension.TEAM, "k2")).extracting(r -> r.group() + "/" + r.requests())
                .containsExactly("team_a/1");
        // the other cuts are unchanged by the team: one row per model, keys summed across teams
        assertThat(usage(UsageQuery.Grain.DAY, UsageQuery.Dimension.MODEL, null)).extracting(r -> r.group() + "/" + r.requests())
                .containsExactlyInAnyOrder("m1/3", "m2/1");
    }

    @Test
    void everyRowIsAddedOnceWhateverTheStepsAndInstances() throws SQLException {
        long now = T0 + 10 * RollupJob.HOUR_MS;
        ledger(now - 60_000, "k1", "m1", 200, 10, 5L, 1, 1, 1);
        job.catchUp(now);
        job.catchUp(now + 1_000);
        new RollupJob(db).catchUp(now + 2_000); // a second instance on the same database
        assertThat(usage(UsageQuery.Grain.HOUR, UsageQuery.Dimension.NONE, null)).extracting(UsageRow::requests).containsExactly(1L);

        // a call that began two hours ago and ended now: counted in its own (earlier) hour
        ledger(now + 3_000, now - 2 * RollupJob.HOUR_MS, "k1", "m1", 200, 10, 5L, 1, 1, 1);
        job.catchUp(now + 5_000);
        assertThat(usage(UsageQuery.Grain.HOUR, UsageQuery.Dimension.NONE, null)).extracting(UsageRow::requests).as("not settled yet")
                .containsExactly(1L);
        job.catchUp(now + 3_000 + RollupJob.SETTLE.toMillis() + 1);
        assertThat(usage(UsageQuery.Grain.HOUR, UsageQuery.Dimension.NONE, null)).extracting(r -> r.bucketMs() + "/" + r.requests())
                .containsExactly((now - 2 * RollupJob.HOUR_MS) + "/1", (now - RollupJob.HOUR_MS) + "/1");
        assertThat(usage(UsageQuery.Grain.DAY, UsageQuery.Dimension.MODEL, null)).extracting(UsageRow::requests).containsExactly(2L);
    }

    @Test
    void aRepriceRebuildsTheDaysOfItsRangeFromTheLedgerOnce() throws SQLException {
        ledger(T0 + 1_000, "k1", "m1", 200, 10, null, 1, 1, 100);
        ledger(T0 + RollupJob.DAY_MS + 1_000, "k1", "m1", 200, 10, null, 1, 1, 100);
        ledger(T0 + 2 * RollupJob.DAY_MS + 1_000, "k2", "m1", 200, 10, null, 1, 1, 100);
        job.catchUp(T0 + 3 * RollupJob.DAY_MS);
        // a reprice of the second day doubles its row (and the others' outside the range are left alone)
        db.call(c -> c.createStatement().executeUpdate("UPDATE usage_ledger SET cost_usd_e10 = 200 WHERE at_ms >= "
                + (T0 + RollupJob.DAY_MS) + " AND at_ms < " + (T0 + 2 * RollupJob.DAY_MS)));
        String range = "{\"from\": \"" + Instant.ofEpochMilli(T0 + RollupJob.DAY_MS) + "\", \"to\": \""
                + Instant.ofEpochMilli(T0 + 2 * RollupJob.DAY_MS) + "\"}";
        db.call(c -> c.createStatement().executeUpdate("INSERT INTO audit_log (id, at_ms, actor, action, target_type, before_json)"
                + " VALUES ('01900000-0000-7000-8000-000000000001', 1, 'test', 'reprice', 'ledger', '" + range + "')"));
        ledger(T0 + RollupJob.DAY_MS + 2_000, T0 + RollupJob.DAY_MS + 2_000, "k1", "m1", 200, 10, null, 1, 1, 1); // written late: below the watermark, never added
        job.catchUp(T0 + 3 * RollupJob.DAY_MS);
        job.catchUp(T0 + 3 * RollupJob.DAY_MS);

        assertThat(usage(UsageQuery.Grain.DAY, UsageQuery.Dimension.NONE, null)).extracting(r -> r.requests() + "/" + r.costE10())
                .containsExactly("1/100", "2/201", "1/100");
        assertThat(usage(UsageQuery.Grain.HOUR, UsageQuery.Dimension.KEY, "k1")).extracting(UsageRow::costE10).containsExactly(100L, 201L);
        long spent = db.call(c -> ConsoleQueries.spentE10(c, "k1"));
        assertThat(spent).isEqualTo(301);
    }

    @Test
    void theUserDimensionSumsTheRowsNamingAUserWithinTheReachAndARepriceRebuildsIt() throws SQLException {
        ledger(T0 + 1_000, "k1", "m1", 200, 90, 40L, 100, 20, 5_000);
        ledger(T0 + 2_000, "k1", "m2", 500, 90, null, 10, 0, 0);
        ledger(T0 + 3_000, "k2", "m1", 200, 90, 40L, 7, 8, 9);
        ledger(T0 + 4_000, "k3", "m1", 200, 90, 40L, 1, 1, 1); // nobody's
        db.call(c -> c.createStatement().executeUpdate("UPDATE usage_ledger SET user_id = 'usr_a', team_id = 'team_a' WHERE key_id = 'k1'"));
        db.call(c -> c.createStatement().executeUpdate("UPDATE usage_ledger SET user_id = 'usr_b' WHERE key_id = 'k2'"));
        job.catchUp(T0 + RollupJob.DAY_MS);

        for (UsageQuery.Grain grain : UsageQuery.Grain.values()) {
            assertThat(usage(grain, UsageQuery.Dimension.USER, null))
                    .extracting(r -> r.group() + "/" + r.requests() + "/" + r.errors() + "/" + r.inputTokens() + "/" + r.costE10())
                    .containsExactlyInAnyOrder("usr_a/2/1/110/5000", "usr_b/1/0/7/9");
        }
        UsageRow a = usage(UsageQuery.Grain.HOUR, UsageQuery.Dimension.USER, "k1").getFirst();
        assertThat(a.latency()).containsExactly(2, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        assertThat(a.ttftCount()).isEqualTo(1);
        // a team's reach: its keys' users; a person's own: the calls billed to them
        List<UsageRow> team = db.call(c -> ConsoleQueries.usage(c, new UsageQuery(UsageQuery.Grain.DAY, T0, T0 + RollupJob.DAY_MS,
                UsageQuery.Dimension.USER, null, new Visible(false, java.util.Set.of("team_a"), null, null))));
        assertThat(team).extracting(UsageRow::group).containsExactly("usr_a");
        List<UsageRow> own = db.call(c -> ConsoleQueries.usage(c, new UsageQuery(UsageQuery.Grain.DAY, T0, T0 + RollupJob.DAY_MS,
                UsageQuery.Dimension.USER, null, new Visible(false, java.util.Set.of(), "usr_b", null))));
        assertThat(own).extracting(UsageRow::group).containsExactly("usr_b");

        db.call(c -> c.createStatement().executeUpdate("UPDATE usage_ledger SET cost_usd_e10 = 1 WHERE key_id = 'k1'"));
        String range = "{\"from\": \"" + Instant.ofEpochMilli(T0) + "\", \"to\": \"" + Instant.ofEpochMilli(T0 + RollupJob.DAY_MS) + "\"}";
        db.call(c -> c.createStatement().executeUpdate("INSERT INTO audit_log (id, at_ms, actor, action, target_type, before_json)"
                + " VALUES ('01900000-0000-7000-8000-000000000001', 1, 'test', 'reprice', 'ledger', '" + range + "')"));
        job.catchUp(T0 + RollupJob.DAY_MS);
        assertThat(usage(UsageQuery.Grain.DAY, UsageQuery.Dimension.USER, null)).extracting(r -> r.group() + "/" + r.costE10())
                .containsExactlyInAnyOrder("usr_a/2", "usr_b/9");
    }

    @Test
    void catchingUpInBatchesAddsEveryRow() throws SQLException {
        int rows = RollupJob.BATCH_ROWS + 5;
        db.transaction(c -> {
            try (PreparedStatement st = c.prepareStatement(INSERT)) {
                for (int i = 0; i < rows; i++) {
                    long at = T0 + i * 1_000L;
                    bind(st, at, at, "k" + (i % 3), "m" + (i % 2), i % 10 == 0 ? 500 : 200, 10, null, 1, 1, 1);
                    st.addBatch();
                    if (i % 5_000 == 0) st.executeBatch();
                }
                return st.executeBatch();
            }
        });
        int steps = 1;
        while (job.step(T0 + rows * 1_000L + RollupJob.DAY_MS)) steps++;
        assertThat(steps).as("windows growing from a minute").isBetween(2, 40);
        List<UsageRow> total = db.call(c -> ConsoleQueries.usage(c, new UsageQuery(UsageQuery.Grain.DAY, T0, T0 + 3 * RollupJob.DAY_MS,
                UsageQuery.Dimension.NONE, null)));
        assertThat(total.stream().mapToLong(UsageRow::requests).sum()).isEqualTo(rows);
        assertThat(total.stream().mapToLong(UsageRow::errors).sum()).isEqualTo((rows + 9) / 10);
    }

    @Test
    void percentilesInterpolateWithinTheirBucket() {
        long[] counts = new long[RollupColumns.BUCKETS];
        counts[0] = 50; // <= 100 ms
        counts[3] = 50; // 500..1000 ms
        assertThat(RollupColumns.percentile(counts, 0.5)).isEqualTo(100);
        assertThat(RollupColumns.percentile(counts, 0.9)).isEqualTo(900);
        assertThat(RollupColumns.percentile(new long[RollupColumns.BUCKETS], 0.5)).isEqualTo(-1);
    }
}
