package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static dev.modelgateway.accounts.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

/** A budget with a period is spent within it and whole again in the next one, on the accounts' clock. */
class BudgetPeriodsTest {
    private static final String MODEL = "platform/vendorA-large";
    /** $0.011475 at {@link #MODEL}'s price: more than a one-cent budget. */
    private static final Usage OVER_A_CENT = new Usage(1000, 2000, 100, 0, 500, 100);

    @TempDir
    Path dir;
    private final TestClock clock = new TestClock(Instant.parse("2026-03-02T23:59:00Z"));
    private Vertx vertx;
    private Accounts accounts;

    @BeforeEach
    void open() {
        vertx = Vertx.vertx();
        accounts = await(Accounts.open(vertx, new AccountsConfig("jdbc:sqlite:" + dir.resolve("gateway.db"), null, null),
                Fixtures.PRICES, clock));
    }

    @AfterEach
    void close() {
        await(accounts.close());
        await(vertx.close());
    }

    @Test
    void aDayBudgetRefusesUntilTheDayEndsThenAdmitsAgain() {
        var created = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("daily", List.of(), null, null, new BigDecimal("0.01"),
                null, List.of(), null, null, BudgetPeriod.DAY), false));
        ApiKey key = await(accounts.authenticate(created.secret()));
        accounts.record(Fixtures.usage(key.id(), MODEL, OVER_A_CENT, 200, clock.instant()));
        Eventually.until("the row written", () -> accounts.ledgerQueued() == 0);

        assertThat(admission(key)).isEqualTo("insufficient_quota");
        clock.advance(Duration.ofSeconds(59));
        assertThat(admission(key)).as("23:59:59, the same day").isEqualTo("insufficient_quota");
        clock.advance(Duration.ofSeconds(1));
        assertThat(admission(key)).as("midnight UTC: the next day's budget").isEqualTo("admitted");
    }

    private String admission(ApiKey key) {
        Future<Admission> admitted = accounts.admit(key, MODEL, 10);
        await(admitted.otherwiseEmpty());
        if (admitted.failed()) return ((GatewayException) admitted.cause()).code();
        admitted.result().settle(0);
        return "admitted";
    }
}
