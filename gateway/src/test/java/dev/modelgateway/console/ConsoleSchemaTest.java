package dev.modelgateway.console;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.store.Database;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's migrations: on the accounts database, with their own history, applied once. */
class ConsoleSchemaTest {
    @TempDir
    Path dir;

    /** Database.migrate skips Flyway when the history reaches this version, so it must be the newest migration. */
    @Test
    void theConsoleSchemaNamesItsNewestMigration() throws Exception {
        Path migrations = Path.of(Console.class.getResource("/db/migration/console").toURI());
        Pattern name = Pattern.compile("V(\\d+)__.*\\.sql");
        int newest;
        try (Stream<Path> files = Files.list(migrations)) {
            newest = files.map(f -> name.matcher(f.getFileName().toString())).filter(Matcher::matches)
                    .mapToInt(m -> Integer.parseInt(m.group(1))).max().orElseThrow();
        }
        assertThat(Console.SCHEMA.newestVersion()).isEqualTo(Integer.toString(newest));
    }

    @Test
    void migratesBesideTheAccountsTablesOnceWithItsOwnHistory() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("a.db");
        for (int run = 0; run < 2; run++) {
            try (Database db = Database.open(url, Accounts.SCHEMA)) {
                db.migrate(Console.SCHEMA);
                int applied = db.call(c -> {
                    try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM console_schema_history WHERE version = '1'")) {
                        rs.next();
                        return rs.getInt(1);
                    }
                });
                assertThat(applied).isEqualTo(1);
                boolean anyRow = db.call(c -> c.createStatement().executeQuery("SELECT key_id FROM console_rollup").next());
                assertThat(anyRow).isFalse();
            }
        }
    }

    /** An upgrade from the rollups without teams: V2 empties them and rewinds the watermark, the job rebuilds them with teams. */
    @Test
    void theTeamCutIsRebuiltFromTheLedgerAfterAnUpgrade() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("upgraded.db");
        long at = System.currentTimeMillis() - RollupJob.DAY_MS;
        try (Database db = Database.open(url, Accounts.SCHEMA)) {
            // a gateway from before V2: its rollups hold the ledger's row, its watermark is past it
            Flyway.configure().dataSource(url, null, null).locations("classpath:db/migration/console")
                    .table("console_schema_history").baselineOnMigrate(true).baselineVersion("0").target("1").load().migrate();
            String id = String.format("%08x-%04x-7000-8000-%012x", at >>> 16, at & 0xffff, 1);
            db.call(c -> {
                try (PreparedStatement st = c.prepareStatement("INSERT INTO usage_ledger (id, trace_id, key_id, team_id, public_model,"
                        + " answered_model, vendor, input_tokens, cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens,"
                        + " output_tokens, reasoning_tokens, attempts, status, latency_ms, at_ms, cost_usd_e10)"
                        + " VALUES (?, 't', 'k1', 'team_a', 'm1', 'm1', 'B', 1, 0, 0, 0, 1, 0, 1, 200, 10, ?, 5)")) {
                    st.setString(1, id);
                    st.setLong(2, at);
                    st.executeUpdate();
                }
                c.createStatement().executeUpdate("UPDATE console_rollup_state SET value = '" + id + "' WHERE name = 'watermark'");
                return c.createStatement().executeUpdate("INSERT INTO console_rollup (cut, grain, bucket_ms, key_id, model, vendor,"
                        + " requests, errors, input_tokens, cache_read_tokens, cache_write_tokens, output_tokens, reasoning_tokens,"
                        + " cost_usd_e10, latency_sum_ms, ttft_sum_ms, ttft_count, lat_0, lat_1, lat_2, lat_3, lat_4, lat_5, lat_6,"
                        + " lat_7, lat_8, lat_9, ttft_0, ttft_1, ttft_2, ttft_3, ttft_4, ttft_5, ttft_6, ttft_7, ttft_8, ttft_9)"
                        + " VALUES ('t', 'd', " + RollupJob.dayStart(at) + ", '', '', '', 1, 0, 1, 0, 0, 1, 0, 5, 10, 0, 0,"
                        + " 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)");
            });

            db.migrate(Console.SCHEMA);
            new RollupJob(db).catchUp(System.currentTimeMillis());
            List<UsageRow> byTeam = db.call(c -> ConsoleQueries.usage(c, new UsageQuery(UsageQuery.Grain.DAY, RollupJob.dayStart(at),
                    RollupJob.dayStart(at) + RollupJob.DAY_MS, UsageQuery.Dimension.TEAM, null)));
            assertThat(byTeam).extracting(r -> r.group() + "/" + r.requests() + "/" + r.costE10()).containsExactly("team_a/1/5");
            List<UsageRow> total = db.call(c -> ConsoleQueries.usage(c, new UsageQuery(UsageQuery.Grain.DAY, RollupJob.dayStart(at),
                    RollupJob.dayStart(at) + RollupJob.DAY_MS, UsageQuery.Dimension.NONE, null)));
            assertThat(total).extracting(UsageRow::requests).as("counted once, not on top of the old rollups").containsExactly(1L);
        }
    }

    /** An upgrade to the per-user rollups: V4 rolls up the ledger rows already past the watermark, once. */
    @Test
    void thePerUserRollupsStartLevelWithTheRollupsAfterAnUpgrade() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("per-user.db");
        long at = System.currentTimeMillis() - RollupJob.DAY_MS;
        try (Database db = Database.open(url, Accounts.SCHEMA)) {
            Flyway.configure().dataSource(url, null, null).locations("classpath:db/migration/console")
                    .table("console_schema_history").baselineOnMigrate(true).baselineVersion("0").target("3").load().migrate();
            String id = String.format("%08x-%04x-7000-8000-%012x", at >>> 16, at & 0xffff, 1);
            db.call(c -> {
                try (PreparedStatement st = c.prepareStatement("INSERT INTO usage_ledger (id, trace_id, key_id, team_id, public_model,"
                        + " answered_model, vendor, input_tokens, cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens,"
                        + " output_tokens, reasoning_tokens, attempts, status, latency_ms, ttft_ms, at_ms, cost_usd_e10, user_id)"
                        + " VALUES (?, 't', 'k1', 'team_a', 'm1', 'm1', 'B', 3, 0, 0, 0, 1, 0, 1, 200, 700, 300, ?, 5, 'usr_a')")) {
                    st.setString(1, id);
                    st.setLong(2, at);
                    st.executeUpdate();
                }
                // rolled up by a gateway from before V4
                return c.createStatement().executeUpdate("UPDATE console_rollup_state SET value = '" + id + "' WHERE name = 'watermark'");
            });

            db.migrate(Console.SCHEMA);
            new RollupJob(db).catchUp(System.currentTimeMillis());
            for (UsageQuery.Grain grain : UsageQuery.Grain.values()) {
                List<UsageRow> byUser = db.call(c -> ConsoleQueries.usage(c, new UsageQuery(grain, RollupJob.dayStart(at),
                        RollupJob.dayStart(at) + RollupJob.DAY_MS, UsageQuery.Dimension.USER, null)));
                assertThat(byUser).extracting(r -> r.group() + "/" + r.requests() + "/" + r.inputTokens() + "/" + r.costE10())
                        .containsExactly("usr_a/1/3/5");
                assertThat(byUser.getFirst().latency()).containsExactly(0, 0, 0, 1, 0, 0, 0, 0, 0, 0);
                assertThat(byUser.getFirst().ttft()).containsExactly(0, 0, 1, 0, 0, 0, 0, 0, 0, 0);
            }
        }
    }
}
