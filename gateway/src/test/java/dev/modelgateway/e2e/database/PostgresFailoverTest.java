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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL failover under load (docs/operations/database-failover.md): a gateway on a multi-host URL with
 * {@code targetServerType=primary}, a primary and a synchronous streaming standby of its own; the primary is killed
 * mid-load and the standby promoted. Calls keep being served, the pool finds the new primary without a restart, and
 * every call has exactly one ledger row, its cost counted once in the key's spend.
 */
@E2e
@ExternalStores
class PostgresFailoverTest {
    static final int CALLERS = 16;
    /** Answers before the kill: the ledger writer has written batches to the first primary. */
    static final int ANSWERS_BEFORE_KILL = 300;
    /** Answers after the promotion, each of them journaled and then written to the new primary. */
    static final int ANSWERS_AFTER_PROMOTION = 300;

    /**
     * How long the database has no primary: the time a failover manager takes to notice and promote (Patroni's
     * default {@code ttl} is 30 s), longer than the accounts' key cache ({@code Accounts.KEY_CACHE_TTL}, 5 s).
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
                String url = "jdbc:postgresql://" + primary.hostPort() + "," + standby.hostPort()
                        + "/gateway?user=postgres&targetServerType=primary";
                failOver(url, primary, standby);
            }
        }
    }

    private void failOver(String url, LocalPostgres primary, LocalPostgres standby) throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("GATEWAY_SERVER_MASTER_KEY", GatewayHarness.KEY,
                "GATEWAY_ACCOUNTS_DATABASE_URL", url, "GATEWAY_ACCOUNTS_LEDGER_JOURNAL_DIR", journal.toString(),
                "ANTHROPIC_BASE_URL", sim.baseUrl() + "/anthropic", "ANTHROPIC_API_KEY", SimKeys.defaults().anthropic()));
        try (GatewayProcess gateway = GatewayProcess.serve(env)) {
            Admin admin = new Admin(gateway.baseUrl());
            Admin.Key key = admin.createKey("{\"name\":\"failover\",\"max_concurrent\":1000,\"budget_usd\":1000}");
            List<Callers.Call> calls;
            long killedAt;
            long promotedAt;
            try (Callers callers = new Callers(gateway.baseUrl(), key.secret(), CALLERS)) {
                Eventually.until(ANSWERS_BEFORE_KILL + " answers", Duration.ofMinutes(2),
                        () -> callers.answered() >= ANSWERS_BEFORE_KILL);
                Eventually.until("rows on the first primary", Duration.ofMinutes(1),
                        () -> !LedgerRows.read(primary.jdbcUrl("gateway"), key.id()).isEmpty());
                killedAt = System.nanoTime();
                primary.kill();
                long outageEnds = killedAt + OUTAGE.toNanos();
                Eventually.until("answers " + OUTAGE.toSeconds() + " s into the outage", OUTAGE.plusSeconds(30),
                        () -> callers.answeredAfter(outageEnds) > 0);
                standby.promote();
                promotedAt = System.nanoTime();
                Eventually.until(ANSWERS_AFTER_PROMOTION + " answers after the promotion", Duration.ofMinutes(2),
                        () -> callers.answeredAfter(promotedAt) >= ANSWERS_AFTER_PROMOTION);
                calls = callers.stop();
            }
            Eventually.until("every row written to the new primary", Duration.ofMinutes(1),
                    () -> admin.metric("gateway_ledger_queue_depth") == 0);
            long writtenAt = System.nanoTime();

            List<LedgerRows.Row> rows = LedgerRows.read(standby.jdbcUrl("gateway"), key.id());
            Map<String, Long> perTrace = rows.stream().collect(Collectors.groupingBy(LedgerRows.Row::traceId, Collectors.counting()));
            Set<String> answered = calls.stream().filter(Callers.Call::answered).map(Callers.Call::traceId)
                    .collect(Collectors.toSet());
            Set<String> seen = calls.stream().map(Callers.Call::traceId).filter(t -> t != null).collect(Collectors.toSet());
            long cost = rows.stream().mapToLong(LedgerRows.Row::costE10).sum();
            String figures = "calls " + calls.size() + ", answered " + answered.size() + ", rows " + rows.size()
                    + ", failures " + Callers.failures(calls) + ", kill to promoted " + ms(promotedAt - killedAt)
                    + ", longest pause in answers after the kill " + Callers.longestPause(calls, killedAt).toMillis()
                    + " ms, kill to every row written " + ms(writtenAt - killedAt);
            System.out.println("PostgreSQL failover under load: " + figures);

            assertThat(perTrace.values()).as("no row twice; " + figures).allMatch(n -> n == 1);
            assertThat(perTrace.keySet()).as("every answered call has its row; " + figures).containsAll(answered);
            assertThat(seen).as("every row is a call a caller saw end; " + figures).containsAll(perTrace.keySet());
            assertThat(admin.spentE10(key.id())).as("the key's spend counts each row once; " + figures).isEqualTo(cost);
            assertThat(standby.value("gateway", "SELECT spent_usd_e10 FROM api_keys WHERE id = '" + key.id() + "'"))
                    .as("the spend stored on the new primary").isEqualTo(Long.toString(cost));
            assertThat(gateway.log()).as("one process throughout, no replay").doesNotContain("usage rows replayed");
            assertThat(admin.ready()).as("/ready on the new primary").isEqualTo(200);
        }
    }

    private static String ms(long nanos) {
        return Duration.ofNanos(nanos).toMillis() + " ms";
    }
}
