package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;

import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.modelgateway.accounts.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Two gateway instances, each with its own Vert.x, sharing one PostgreSQL and one Redis. */
@ExternalStores
class SharedInstancesTest {
    private static final String MODEL = "platform/vendorA-large";

    private Fixtures.PgSchema schema;
    private final String prefix = Fixtures.random("mgtest-") + ":";
    private Vertx vertxA;
    private Vertx vertxB;
    private Accounts a;
    private Accounts b;

    @BeforeEach
    void open() throws Exception {
        schema = Fixtures.PgSchema.create();
        AccountsConfig config = new AccountsConfig(schema.url(), Fixtures.REDIS_URL, null, prefix);
        vertxA = Vertx.vertx();
        vertxB = Vertx.vertx();
        // Both start at once: Flyway's lock on PostgreSQL lets only one of them migrate.
        var openA = Accounts.open(vertxA, config, Fixtures.PRICES);
        var openB = Accounts.open(vertxB, config, Fixtures.PRICES);
        a = await(openA);
        b = await(openB);
    }

    @AfterEach
    void close() throws Exception {
        await(a.close());
        await(b.close());
        Fixtures.deleteRedisKeys(vertxA, prefix);
        await(vertxA.close());
        await(vertxB.close());
        schema.close();
    }

    @Test
    void oneRateLimitAcrossInstances() {
        var created = await(a.admin().createKey(Actor.system("test"), new KeySettings("shared", List.of(), 5L, null, null, null), false));
        ApiKey onA = await(a.authenticate(created.secret()));
        ApiKey onB = await(b.authenticate(created.secret()));

        List<Future<Admission>> attempts = new ArrayList<>();
        for (int i = 0; i < 12; i++) attempts.add((i % 2 == 0 ? a : b).admit(i % 2 == 0 ? onA : onB, MODEL, 10));
        await(Future.join(attempts).otherwiseEmpty());

        assertThat(attempts.stream().filter(Future::succeeded).count()).isEqualTo(5);
        assertThat(attempts.stream().filter(Future::failed).map(f -> ((GatewayException) f.cause()).status()))
                .hasSize(7).containsOnly(429);
    }

    @Test
    void oneConsistentLedgerAndSharedBudget() throws Exception {
        var created = await(a.admin().createKey(Actor.system("test"), new KeySettings("shared", List.of(), null, null, new BigDecimal("0.05"), null), false));
        ApiKey onA = await(a.authenticate(created.secret()));
        ApiKey onB = await(b.authenticate(created.secret()));
        Usage usage = new Usage(1000, 2000, 100, 0, 500, 100); // $0.011475 each

        for (int i = 0; i < 10; i++) a.record(Fixtures.usage(onA.id(), MODEL, usage, 200, Instant.now()));
        assertThat(await(b.admit(onB, MODEL, 10))).as("B has not heard of A's spend yet").isNotNull();
        // A has spent the whole budget by itself; B learns it from the database within a flush and a refresh.
        // each admission polled is settled at once: held, their reservations alone would spend the budget
        // ("budget_reserved") before B hears of A's spend
        assertThat(Eventually.value("B refusing the key", Duration.ofSeconds(5), () -> settled(b.admit(onB, MODEL, 10)),
                refusal -> !refusal.equals("admitted"))).isEqualTo("insufficient_quota");

        // Requests already admitted finish and are recorded on both sides.
        for (int i = 0; i < 30; i++) b.record(Fixtures.usage(onB.id(), MODEL, usage, 200, Instant.now()));
        for (int i = 0; i < 20; i++) a.record(Fixtures.usage(onA.id(), MODEL, usage, 200, Instant.now()));

        await(a.close());
        await(b.close());
        try (Connection c = DriverManager.getConnection(schema.url()); Statement s = c.createStatement()) {
            ResultSet ledger = s.executeQuery("SELECT COUNT(*), COUNT(DISTINCT trace_id), SUM(cost_usd_e10) FROM usage_ledger");
            ledger.next();
            assertThat(ledger.getLong(1)).isEqualTo(60);
            assertThat(ledger.getLong(2)).isEqualTo(60);
            assertThat(Money.fromE10(ledger.getLong(3))).isEqualByComparingTo("0.6885");
            ResultSet spent = s.executeQuery("SELECT spent_usd_e10 FROM api_keys");
            spent.next();
            assertThat(Money.fromE10(spent.getLong(1))).isEqualByComparingTo("0.6885");
        }
        a = await(Accounts.open(vertxA, new AccountsConfig(schema.url(), Fixtures.REDIS_URL, null, prefix), Fixtures.PRICES));
        b = await(Accounts.open(vertxB, new AccountsConfig(schema.url(), Fixtures.REDIS_URL, null, prefix), Fixtures.PRICES));
    }

    @Test
    void aLiveInstanceRenewsItsLeasesAndACrashedOnesExpire() throws Exception {
        var created = await(a.admin().createKey(Actor.system("test"), new KeySettings("one-at-a-time", List.of(), null, null, null, null, List.of(), 1L), false));
        ApiKey onB = await(b.authenticate(created.secret()));
        Vertx vertxC = Vertx.vertx();
        Accounts c = await(Accounts.open(vertxC, new AccountsConfig(schema.url(), Fixtures.REDIS_URL, null, prefix), Fixtures.PRICES, 900));
        try {
            await(c.admit(await(c.authenticate(created.secret())), MODEL, 10));
            // Redis expires a lease on its own clock, which no test clock reaches: outliving the 900 ms lease takes that long
            Thread.sleep(2_000);
            assertThat(refusal(b.admit(onB, MODEL, 10))).as("renewed past its lease time").isEqualTo("concurrency_limit_exceeded");
        } finally {
            // no settle: as if the instance died with the call in flight
            await(c.close());
            await(vertxC.close());
        }
        assertThat(refusal(b.admit(onB, MODEL, 10))).isEqualTo("concurrency_limit_exceeded");
        // the crashed instance's lease (900 ms) expires in Redis: admitted within 1.2 s, as soon as it has
        List<Admission> admitted = new ArrayList<>();
        Eventually.until("the crashed instance's lease expired", Duration.ofMillis(1_200), () -> {
            Future<Admission> tried = b.admit(onB, MODEL, 10);
            await(tried.otherwiseEmpty());
            if (tried.succeeded()) admitted.add(tried.result());
            return tried.succeeded();
        });
        admitted.getFirst().settle(10);
    }

    /** As {@link #refusal}, releasing an admitted call's slot and reservation as a call without usage would. */
    private static String settled(Future<Admission> admission) {
        String outcome = refusal(admission);
        if (admission.succeeded()) admission.result().settle(0);
        return outcome;
    }

    private static String refusal(Future<Admission> admission) {
        await(admission.otherwiseEmpty());
        return admission.failed() ? ((GatewayException) admission.cause()).code() : "admitted";
    }
}
