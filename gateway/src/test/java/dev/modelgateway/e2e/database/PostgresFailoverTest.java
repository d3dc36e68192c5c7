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

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL failover under load (docs/operations/database-failover.md): a gateway on a multi-host URL with
 * {@code targetServerType=primary}, a primary and a synchronous streaming standby of its own; the primary is killed
 * mid-load and the standby promoted. Calls keep being served, the pool finds the new primary without a restart, and
 * every call has exactly one ledger row, its cost counted once in the key's spend. With an asynchronous standby the
 * rows it had not received are lost at the promotion, and {@code journal replay} brings them back.
 */
@E2e
@ExternalStores
class PostgresFailoverTest {
    static final int CALLERS = 16;
    /** Answers before the kill: the ledger writer has written batches to the first primary. */
    static final int ANSWERS_BEFORE_KILL = 300;
    /** Answers after the promotion, each of them journaled and then written to the new primary. */
    static final int ANSWERS_AFTER_PROMOTION = 300;
    static final String KEY = "{\"name\":\"failover\",\"max_concurrent\":1000,\"budget_usd\":1000}";

    /**
     * How long the database has no primary: the time a failover manager takes to notice and promote (Patroni's
     * default {@code ttl} is 30 s), longer than the accounts' key cache ({@code KeyLookups.FRESH}, 5 s).
     */
    static final Duration OUTAGE = Duration.ofSeconds(10);

    Vertx vertx;
    VendorSimulator sim;
    @TempDir
    Path journal;

    @BeforeEach
    void simulator() {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
    }

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    @Test
    void primaryKilledUnderLoadLosesNoRowAndCountsNoneTwice() throws Exception {
        try (LocalPostgres primary = LocalPostgres.primary()) {
            primary.createDatabase("gateway");
            try (LocalPostgres standby = primary.standby()) {
                primary.requireSynchronousStandby();
                try (GatewayProcess gateway = GatewayProcess.serve(env(primary, standby))) {
                    Admin admin = new Admin(gateway.baseUrl());
                    Admin.Key key = admin.createKey(KEY);
                    List<Callers.Call> calls;
                    long killedAt;
                    long promotedAt;
                    try (Callers callers = new Callers(gateway.baseUrl(), key.secret(), CALLERS)) {
                        awaitRowsOn(primary, callers, key);
                        killedAt = System.nanoTime();
                        primary.kill();
                        long outageEnds = killedAt + OUTAGE.toNanos();
                        Eventually.until("answers " + OUTAGE.toSeconds() + " s into the outage", OUTAGE.plusSeconds(30),
                                () -> callers.answeredAfter(outageEnds) > 0);
                        standby.promote();
                        promotedAt = System.nanoTime();
                        calls = answersAfter(callers, promotedAt);
                    }
                    awaitWritten(admin);
                    long writtenAt = System.nanoTime();

                    List<LedgerRows.Row> rows = LedgerRows.read(standby.jdbcUrl("gateway"), key.id());
                    String figures = "calls " + calls.size() + ", answered " + answered(calls).size() + ", rows " + rows.size()
                            + ", failures " + Callers.failures(calls) + ", kill to promoted " + ms(promotedAt - killedAt)
                            + ", longest pause in answers after the kill " + Callers.longestPause(calls, killedAt).toMillis()
                            + " ms, kill to every row written " + ms(writtenAt - killedAt);
                    System.out.println("PostgreSQL failover under load, synchronous standby: " + figures);
                    assertOneRowPerAnsweredCall(calls, rows, figures);
                    assertSpentOnce(admin, key, standby, rows, figures);
                    assertThat(gateway.log()).as("one process throughout, no replay").doesNotContain("usage rows replayed");
                    assertThat(admin.ready()).as("/ready on the new primary").isEqualTo(200);
                }
            }
        }
    }

    /**
     * An asynchronous standby acknowledges nothing: the rows the primary committed after the standby last received its
     * WAL are gone once the standby is promoted. The journal still holds them (kept for an hour here), and
     * {@code journal replay} run against the new primary brings back exactly those, beside the running gateway.
     */
    @Test
    void anAsynchronousStandbyLosesAcknowledgedRowsAndTheJournalBringsThemBack() throws Exception {
        try (LocalPostgres primary = LocalPostgres.primary()) {
            primary.createDatabase("gateway");
            try (LocalPostgres standby = primary.standby()) {
                Map<String, String> env = env(primary, standby);
                env.put("GATEWAY_ACCOUNTS_LEDGER_JOURNAL_KEEP_HOURS", "1");
                try (GatewayProcess gateway = GatewayProcess.serve(env)) {
                    Admin admin = new Admin(gateway.baseUrl());
                    Admin.Key key = admin.createKey(KEY);
                    List<Callers.Call> calls;
                    try (Callers callers = new Callers(gateway.baseUrl(), key.secret(), CALLERS)) {
                        awaitRowsOn(primary, callers, key);
                        // the standby falls behind, as an asynchronous one may at any moment: it stops receiving WAL
                        standby.sql("postgres", "ALTER SYSTEM SET primary_conninfo = ''", "SELECT pg_reload_conf()");
                        Eventually.until("the standby detached", Duration.ofSeconds(30),
                                () -> "0".equals(primary.value("postgres", "SELECT COUNT(*) FROM pg_stat_replication")));
                        long detachedAt = System.nanoTime();
                        Eventually.until("answers the standby never gets", Duration.ofMinutes(1),
                                () -> callers.answeredAfter(detachedAt) >= ANSWERS_AFTER_PROMOTION);
                        // acknowledged by the primary, the journal's segment done with them: the rows of every call
                        // answered so far (the callers go on, so the writer's queue is never seen empty for long)
                        long answeredSoFar = callers.answered();
                        Eventually.until("the rows of " + answeredSoFar + " answers on the primary", Duration.ofMinutes(1),
                                () -> LedgerRows.read(primary.jdbcUrl("gateway"), key.id()).size() >= answeredSoFar);
                        primary.kill();
                        standby.promote();
                        calls = answersAfter(callers, System.nanoTime());
                    }
                    awaitWritten(admin);
                    List<LedgerRows.Row> before = LedgerRows.read(standby.jdbcUrl("gateway"), key.id());
                    Set<String> lost = new HashSet<>(answered(calls));
                    before.forEach(r -> lost.remove(r.traceId()));

                    GatewayProcess.Result replay = GatewayProcess.run(env, "journal", "replay");
                    assertThat(replay.status()).as(replay.output()).isZero();
                    List<LedgerRows.Row> rows = LedgerRows.read(standby.jdbcUrl("gateway"), key.id());
                    String figures = "calls " + calls.size() + ", answered " + answered(calls).size() + ", rows after the"
                            + " failover " + before.size() + ", answered calls without a row " + lost.size()
                            + ", rows after the replay " + rows.size() + "; " + replay.output().strip();
                    System.out.println("PostgreSQL failover under load, asynchronous standby: " + figures);
                    assertThat(lost).as("the primary's acknowledged rows the standby never got; " + figures)
                            .hasSizeGreaterThanOrEqualTo(ANSWERS_AFTER_PROMOTION);
                    assertThat(replay.output()).contains(" " + (rows.size() - before.size()) + " of them added");
                    assertOneRowPerAnsweredCall(calls, rows, figures);
                    assertSpentOnce(admin, key, standby, rows, figures);
                }
            }
        }
    }

    private Map<String, String> env(LocalPostgres primary, LocalPostgres standby) {
        // the URL docs/operations/database-failover.md gives
        String url = "jdbc:postgresql://" + primary.hostPort() + "," + standby.hostPort()
                + "/gateway?user=postgres&targetServerType=primary&connectTimeout=5&socketTimeout=60";
        return new HashMap<>(Map.of("GATEWAY_SERVER_MASTER_KEY", GatewayHarness.KEY,
                "GATEWAY_ACCOUNTS_DATABASE_URL", url, "GATEWAY_ACCOUNTS_LEDGER_JOURNAL_DIR", journal.toString(),
                "ANTHROPIC_BASE_URL", sim.baseUrl() + "/anthropic", "ANTHROPIC_API_KEY", SimKeys.defaults().anthropic()));
    }

    private static void awaitRowsOn(LocalPostgres primary, Callers callers, Admin.Key key) {
        Eventually.until(ANSWERS_BEFORE_KILL + " answers", Duration.ofMinutes(2), () -> callers.answered() >= ANSWERS_BEFORE_KILL);
        Eventually.until("rows on the first primary", Duration.ofMinutes(1),
                () -> !LedgerRows.read(primary.jdbcUrl("gateway"), key.id()).isEmpty());
    }

    private static List<Callers.Call> answersAfter(Callers callers, long promotedAt) throws InterruptedException {
        Eventually.until(ANSWERS_AFTER_PROMOTION + " answers after the promotion", Duration.ofMinutes(2),
                () -> callers.answeredAfter(promotedAt) >= ANSWERS_AFTER_PROMOTION);
        return callers.stop();
    }

    private static void awaitWritten(Admin admin) {
        Eventually.until("every row written", Duration.ofMinutes(1), () -> admin.metric("gateway_ledger_queue_depth") == 0);
    }

    private static Set<String> answered(List<Callers.Call> calls) {
        return calls.stream().filter(Callers.Call::answered).map(Callers.Call::traceId).collect(Collectors.toSet());
    }

    private static void assertOneRowPerAnsweredCall(List<Callers.Call> calls, List<LedgerRows.Row> rows, String figures) {
        Map<String, Long> perTrace = rows.stream().collect(Collectors.groupingBy(LedgerRows.Row::traceId, Collectors.counting()));
        Set<String> seen = calls.stream().map(Callers.Call::traceId).filter(t -> t != null).collect(Collectors.toSet());
        assertThat(perTrace.values()).as("no row twice; " + figures).allMatch(n -> n == 1);
        assertThat(perTrace.keySet()).as("every answered call has its row; " + figures).containsAll(answered(calls));
        assertThat(seen).as("every row is a call a caller saw end; " + figures).containsAll(perTrace.keySet());
    }

    /** The spend on the new primary, and as the gateway reports it (refreshed from the database), is each row's once. */
    private static void assertSpentOnce(Admin admin, Admin.Key key, LocalPostgres primary, List<LedgerRows.Row> rows,
                                        String figures) {
        long cost = rows.stream().mapToLong(LedgerRows.Row::costE10).sum();
        assertThat(primary.value("gateway", "SELECT spent_usd_e10 FROM api_keys WHERE id = '" + key.id() + "'"))
                .as("the spend stored on the new primary; " + figures).isEqualTo(Long.toString(cost));
        Eventually.until("the gateway's spend " + cost, () -> admin.spentE10(key.id()) == cost);
    }

    private static String ms(long nanos) {
        return Duration.ofNanos(nanos).toMillis() + " ms";
    }
}
