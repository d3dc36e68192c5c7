package dev.modelgateway.accounts;

import dev.modelgateway.error.GatewayException;
import dev.modelgateway.testing.ExternalStores;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static dev.modelgateway.accounts.Fixtures.await;
import static dev.modelgateway.accounts.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key rotated on one of two instances sharing one PostgreSQL: the other one, which had the old secret in its key cache
 * as the current one, accepts it through the grace and refuses it from the grace's end, not a cache lifetime later.
 */
@ExternalStores
class SharedKeyRotationTest {
    private static final String MASTER = "master-secret-for-tests";

    private final TestClock clock = new TestClock(Instant.parse("2026-06-01T12:00:00Z"));
    private Fixtures.PgSchema schema;
    private Vertx vertxA;
    private Vertx vertxB;
    private Accounts a;
    private Accounts b;

    @BeforeEach
    void open() throws Exception {
        schema = Fixtures.PgSchema.create();
        AccountsConfig config = new AccountsConfig(schema.url(), null, MASTER);
        vertxA = Vertx.vertx();
        vertxB = Vertx.vertx();
        a = await(Accounts.open(vertxA, config, Fixtures.PRICES, clock));
        b = await(Accounts.open(vertxB, config, Fixtures.PRICES, clock));
    }

    @AfterEach
    void close() throws Exception {
        await(a.close());
        await(b.close());
        await(vertxA.close());
        await(vertxB.close());
        schema.close();
    }

    @Test
    void theOtherInstanceRefusesTheOldSecretExactlyAtTheGracesEnd() {
        Fixtures.Server onA = Fixtures.Server.start(vertxA, a);
        var created = onA.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "shared"));
        String id = created.json().getString("id");
        String old = created.json().getString("key");
        assertThat(await(b.authenticate(old)).secretAcceptedUntil()).as("B caches the old secret as the current one").isNull();

        // the shortest grace, the key cache's own lifetime: B's cached row cannot outlive it
        var rotated = onA.call("POST", "/api/v1/admin/keys/" + id + "/rotate", MASTER, new JsonObject().put("grace_seconds", 5));
        assertThat(rotated.status()).isEqualTo(200);
        String fresh = rotated.json().getString("key");
        assertThat(await(b.authenticate(fresh)).id()).as("the new secret works on B at once").isEqualTo(id);

        clock.advance(Duration.ofSeconds(5).minusMillis(1));
        assertThat(await(b.authenticate(old)).id()).isEqualTo(id);
        assertThat(await(a.authenticate(old)).id()).isEqualTo(id);
        clock.advanceMillis(1);
        for (Accounts instance : new Accounts[]{b, a}) {
            GatewayException refused = (GatewayException) failure(instance.authenticate(old));
            assertThat(refused.code()).isEqualTo("api_key_rotated");
            assertThat(await(instance.authenticate(fresh)).id()).isEqualTo(id);
        }
    }
}
