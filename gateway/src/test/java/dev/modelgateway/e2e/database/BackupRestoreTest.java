package dev.modelgateway.e2e.database;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Back up while serving, lose the database, restore the backup somewhere new and replay the journal
 * (docs/operations/backup-and-restore.md, each command as written there): the rows written after the backup come
 * back from the journal, once; no answered call is without its row, none has two, and each cost is counted once.
 */
@E2e
@ExternalStores
class BackupRestoreTest {
    static final int CALLERS = 8;
    static final int ANSWERS = 200;
    private static final Pattern ADDED = Pattern.compile("(\\d+) usage rows in .*; (\\d+) of them added");

    Vertx vertx;
    VendorSimulator sim;
    /** The journal, on a disk of its own: it outlives the database's. */
    @TempDir
    Path journal;
    @TempDir
    Path dir;

    @BeforeEach
    void simulator() {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
    }

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    /**
     * SQLite: {@code backup --to} while serving, a clean stop (every row written, the segments kept as written for
     * a day), the data directory lost; the backup copied into a fresh one, {@code journal replay}, then a start.
     */
    @Test
    void sqliteBackupRestoredInAFreshDataDirectoryGetsTheLaterRowsFromTheJournal() throws Exception {
        Path lost = Files.createDirectories(dir.resolve("data"));
        Path fresh = Files.createDirectories(dir.resolve("restored"));
        Path backup = dir.resolve("gateway-backup.db");
        Map<String, String> env = env(Map.of("GATEWAY_SERVER_DATA_DIR", lost.toString(),
                "GATEWAY_ACCOUNTS_LEDGER_JOURNAL_KEEP_HOURS", "24"));
        Admin.Key key;
        List<Callers.Call> calls;
        try (GatewayProcess gateway = GatewayProcess.serve(env)) {
            key = new Admin(gateway.baseUrl()).createKey("{\"name\":\"backup\",\"max_concurrent\":1000,\"budget_usd\":1000}");
            try (Callers callers = new Callers(gateway.baseUrl(), key.secret(), CALLERS)) {
                Eventually.until(ANSWERS + " answers", Duration.ofMinutes(2), () -> callers.answered() >= ANSWERS);
                GatewayProcess.Result backedUp = GatewayProcess.run(env, "backup", "--to", backup.toString());
                assertThat(backedUp.status()).as(backedUp.output()).isZero();
                long atBackup = callers.answered();
                Eventually.until(ANSWERS + " answers after the backup", Duration.ofMinutes(2),
                        () -> callers.answered() >= atBackup + ANSWERS);
                calls = callers.stop();
            }
            gateway.stop();
        }
        try (var files = Files.list(lost)) { // the database's disk is lost
            for (Path p : files.toList()) Files.delete(p);
        }
        Files.copy(backup, fresh.resolve("gateway.db"));
        Map<String, String> restored = env(Map.of("GATEWAY_SERVER_DATA_DIR", fresh.toString(),
                "GATEWAY_ACCOUNTS_LEDGER_JOURNAL_KEEP_HOURS", "24"));
        int inBackup = LedgerRows.read(sqlite(fresh), key.id()).size();

        long added = replay(restored);
        assertThat(replay(restored)).as("a second replay adds nothing").isZero();
        try (GatewayProcess gateway = GatewayProcess.serve(restored)) {
            List<LedgerRows.Row> rows = LedgerRows.read(sqlite(fresh), key.id());
            String figures = figures(calls, inBackup, added, rows);
            System.out.println("SQLite backup and restore: " + figures);
            assertOneRowPerCall(calls, rows, figures);
            assertThat(rows).as("every call ended with an answer: its row, and no other; " + figures).hasSize(calls.size());
            assertThat(inBackup).as("the backup had the rows up to it only; " + figures).isLessThan(calls.size());
            assertThat(added).as(figures).isEqualTo(rows.size() - inBackup);
            assertSpentOnce(new Admin(gateway.baseUrl()), key, rows);
        }
    }

    /**
     * PostgreSQL: {@code pg_dump} while serving, then the gateway and the server both lost ({@code kill -9}, the
     * server's directory deleted); {@code pg_restore} into a new server on another port, and the gateway started on
     * it replays the journal's segment by itself: the restored database is the same database.
     */
    @Test
    void postgresDumpRestoredOnAnotherServerGetsTheLaterRowsFromTheJournalAtStart() throws Exception {
        Path work = LocalPostgres.ownDirectory();
        String dump = work.resolve("gateway.dump").toString();
        Admin.Key key;
        List<Callers.Call> calls;
        try (LocalPostgres lost = LocalPostgres.primary()) {
            lost.createDatabase("gateway");
            try (GatewayProcess gateway = GatewayProcess.serve(env(Map.of("GATEWAY_ACCOUNTS_DATABASE_URL", lost.jdbcUrl("gateway"))))) {
                key = new Admin(gateway.baseUrl()).createKey("{\"name\":\"dump\",\"max_concurrent\":1000,\"budget_usd\":1000}");
                try (Callers callers = new Callers(gateway.baseUrl(), key.secret(), CALLERS)) {
                    Eventually.until(ANSWERS + " answers", Duration.ofMinutes(2), () -> callers.answered() >= ANSWERS);
                    lost.client(work, "pg_dump", "--format=custom", "--file=" + dump, "--dbname=" + uri(lost, "gateway"));
                    long atDump = callers.answered();
                    Eventually.until(ANSWERS + " answers after the dump", Duration.ofMinutes(2),
                            () -> callers.answered() >= atDump + ANSWERS);
                    gateway.kill();
                    calls = callers.stop();
                }
            }
        }
        try (LocalPostgres server = LocalPostgres.primary()) {
            server.client(work, "createdb", "--maintenance-db=" + uri(server, "postgres"), "gateway");
            server.client(work, "pg_restore", "--no-owner", "--dbname=" + uri(server, "gateway"), dump);
            int inBackup = LedgerRows.read(server.jdbcUrl("gateway"), key.id()).size();
            try (GatewayProcess gateway = GatewayProcess.serve(env(Map.of("GATEWAY_ACCOUNTS_DATABASE_URL", server.jdbcUrl("gateway"))))) {
                List<LedgerRows.Row> rows = LedgerRows.read(server.jdbcUrl("gateway"), key.id());
                long answered = calls.stream().filter(Callers.Call::answered).count();
                String figures = figures(calls, inBackup, rows.size() - inBackup, rows);
                System.out.println("PostgreSQL dump and restore: " + figures);
                assertThat(gateway.log()).contains("usage rows replayed");
                assertOneRowPerCall(calls, rows, figures);
                // a row without an answer: a call the kill cut after its row was journaled (the vendor was paid)
                assertThat(rows.size() - answered).as(figures).isBetween(0L, (long) CALLERS);
                assertThat(inBackup).as(figures).isLessThan((int) answered);
                assertSpentOnce(new Admin(gateway.baseUrl()), key, rows);
            }
        } finally {
            try (var files = Files.list(work)) {
                for (Path p : files.toList()) Files.delete(p);
            }
            Files.delete(work);
        }
    }

    private Map<String, String> env(Map<String, String> more) {
        Map<String, String> env = new HashMap<>(Map.of("GATEWAY_SERVER_MASTER_KEY", GatewayHarness.KEY,
                "GATEWAY_ACCOUNTS_LEDGER_JOURNAL_DIR", journal.toString(),
                "ANTHROPIC_BASE_URL", sim.baseUrl() + "/anthropic", "ANTHROPIC_API_KEY", SimKeys.defaults().anthropic()));
        env.putAll(more);
        return env;
    }

    /** {@code journal replay}: the rows it added. */
    private static long replay(Map<String, String> env) throws Exception {
        GatewayProcess.Result replayed = GatewayProcess.run(env, "journal", "replay");
        assertThat(replayed.status()).as(replayed.output()).isZero();
        Matcher m = ADDED.matcher(replayed.output());
        assertThat(m.find()).as(replayed.output()).isTrue();
        return Long.parseLong(m.group(2));
    }

    private static void assertOneRowPerCall(List<Callers.Call> calls, List<LedgerRows.Row> rows, String figures) {
        Map<String, Long> perTrace = rows.stream().collect(Collectors.groupingBy(LedgerRows.Row::traceId, Collectors.counting()));
        Set<String> answered = calls.stream().filter(Callers.Call::answered).map(Callers.Call::traceId).collect(Collectors.toSet());
        assertThat(perTrace.values()).as("no row twice; " + figures).allMatch(n -> n == 1);
        assertThat(perTrace.keySet()).as("every answered call has its row; " + figures).containsAll(answered);
    }

    private static void assertSpentOnce(Admin admin, Admin.Key key, List<LedgerRows.Row> rows) {
        long cost = rows.stream().mapToLong(LedgerRows.Row::costE10).sum();
        assertThat(admin.spentE10(key.id())).as("the key's spend counts each row once").isEqualTo(cost);
    }

    private static String figures(List<Callers.Call> calls, int inBackup, long added, List<LedgerRows.Row> rows) {
        return "calls " + calls.size() + ", answered " + calls.stream().filter(Callers.Call::answered).count()
                + ", rows in the backup " + inBackup + ", rows from the journal " + added + ", rows after " + rows.size();
    }

    private static String sqlite(Path dataDir) {
        return "jdbc:sqlite:" + dataDir.resolve("gateway.db");
    }

    /** The libpq URI the documented commands take. */
    private static String uri(LocalPostgres server, String database) {
        return "postgresql://" + LocalPostgres.SUPERUSER + "@" + server.hostPort() + "/" + database;
    }
}
