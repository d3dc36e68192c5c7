package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;

import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.canonical.Usage;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static dev.modelgateway.accounts.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The usage reports over HTTP, on ledger rows written by the real writer, for each database. */
abstract class UsageApiContract {
    private static final String MASTER = "usage-master";
    private static final String LARGE = "platform/vendorA-large";
    private static final String SMALL = "platform/vendorA-small";

    private Vertx vertx;
    private Accounts accounts;
    private Fixtures.Server http;
    private String k1;
    private String k2;
    private String k2Secret;

    /** Called before each test, as the fixture opens; each test gets an empty database. */
    abstract String databaseUrl() throws Exception;

    /** After each test, once everything is closed. */
    void dropDatabase() throws Exception {
    }

    @BeforeEach
    void seed() throws Exception {
        vertx = Vertx.vertx();
        AccountsConfig config = new AccountsConfig(databaseUrl(), null, MASTER);
        accounts = await(Accounts.open(vertx, config, Fixtures.PRICES));
        k1 = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("one", List.of(), null, null, null, null), false)).key().id();
        var second = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("two", List.of(), null, null, null, null), false));
        k2 = second.key().id();
        k2Secret = second.secret();

        // $0.0105
        accounts.record(Fixtures.usage(k1, LARGE, new Usage(1000, 0, 0, 0, 500, 0), 200, Instant.parse("2025-06-01T10:15:00Z")));
        // 2000 x $0.25 + 1000 cache reads x $0.025 + 100 x $1.25 = $0.00065
        accounts.record(Fixtures.usage(k1, SMALL, new Usage(2000, 1000, 0, 0, 100, 0), 200, Instant.parse("2025-06-01T10:45:00Z")));
        accounts.record(Fixtures.usage(k2, LARGE, Usage.ZERO, 500, Instant.parse("2025-06-01T11:05:00Z")));
        // $0.00045
        accounts.record(Fixtures.usage(k2, LARGE, new Usage(100, 0, 0, 0, 10, 0), 200, Instant.parse("2025-06-02T09:00:00Z")));
        // Outside the range asked for below.
        accounts.record(Fixtures.usage(k1, LARGE, new Usage(9, 0, 0, 0, 9, 0), 200, Instant.parse("2025-05-01T00:00:00Z")));
        await(accounts.close());

        accounts = await(Accounts.open(vertx, config, Fixtures.PRICES));
        http = Fixtures.Server.start(vertx, accounts);
    }

    @AfterEach
    void stop() throws Exception {
        await(accounts.close());
        await(vertx.close());
        dropDatabase();
    }

    private JsonObject report(String query, String bearer) {
        var reply = http.get("/api/v1/" + query, bearer);
        assertThat(reply.status()).as(reply.json().encode()).isEqualTo(200);
        return reply.json();
    }

    private static List<JsonObject> data(JsonObject report) {
        return report.getJsonArray("data").stream().map(JsonObject.class::cast).toList();
    }

    @Test
    void byKey() {
        JsonObject r = report("admin/usage?from=2025-06-01&to=2025-06-03&group_by=key", MASTER);
        assertThat(data(r)).extracting(o -> o.getString("key_id"), o -> o.getLong("requests"), o -> o.getLong("failed_requests"),
                        o -> o.getLong("input_tokens"), o -> o.getLong("cache_read_tokens"), o -> o.getLong("output_tokens"),
                        o -> o.getString("cost_usd"))
                .containsExactlyInAnyOrder(tuple(k1, 2L, 0L, 3000L, 1000L, 600L, "0.01115"),
                        tuple(k2, 2L, 1L, 100L, 0L, 10L, "0.00045"));
        assertThat(r.getJsonObject("total").getLong("requests")).isEqualTo(4);
        assertThat(r.getJsonObject("total").getLong("total_tokens")).isEqualTo(4710);
        assertThat(r.getJsonObject("total").getString("cost_usd")).isEqualTo("0.0116");
    }

    @Test
    void byModelWithEpochSeconds() {
        long from = Instant.parse("2025-06-01T00:00:00Z").getEpochSecond();
        long to = Instant.parse("2025-06-03T00:00:00Z").getEpochSecond();
        JsonObject r = report("admin/usage?from=" + from + "&to=" + to + "&group_by=model", MASTER);
        assertThat(r.getString("from")).isEqualTo("2025-06-01T00:00:00Z");
        assertThat(data(r)).extracting(o -> o.getString("model"), o -> o.getLong("requests"), o -> o.getString("cost_usd"))
                .containsExactly(tuple(LARGE, 3L, "0.01095"), tuple(SMALL, 1L, "0.00065"));
    }

    @Test
    void byDayAndByHour() {
        JsonObject days = report("admin/usage?from=2025-06-01T00:00:00Z&to=2025-06-03T00:00:00Z&group_by=day", MASTER);
        assertThat(data(days)).extracting(o -> o.getString("day"), o -> o.getLong("requests"), o -> o.getString("cost_usd"))
                .containsExactly(tuple("2025-06-01", 3L, "0.01115"), tuple("2025-06-02", 1L, "0.00045"));

        JsonObject hours = report("admin/usage?from=2025-06-01&to=2025-06-03&group_by=hour", MASTER);
        assertThat(data(hours)).extracting(o -> o.getString("hour"), o -> o.getLong("requests"), o -> o.getString("cost_usd"))
                .containsExactly(tuple("2025-06-01T10:00:00Z", 2L, "0.01115"), tuple("2025-06-01T11:00:00Z", 1L, "0"),
                        tuple("2025-06-02T09:00:00Z", 1L, "0.00045"));

        JsonObject both = report("admin/usage?from=2025-06-01&to=2025-06-03&group_by=key,day", MASTER);
        assertThat(data(both)).extracting(o -> o.getString("key_id"), o -> o.getString("day"), o -> o.getLong("requests"))
                .containsExactlyInAnyOrder(tuple(k1, "2025-06-01", 2L), tuple(k2, "2025-06-01", 1L), tuple(k2, "2025-06-02", 1L));
    }

    @Test
    void callersSeeOnlyTheirOwnUsage() {
        JsonObject mine = report("usage?from=2025-01-01&to=2026-01-01&group_by=model", k2Secret);
        assertThat(data(mine)).extracting(o -> o.getString("model"), o -> o.getLong("requests"), o -> o.getLong("failed_requests"))
                .containsExactly(tuple(LARGE, 2L, 1L));
        assertThat(mine.getJsonObject("total").getString("cost_usd")).isEqualTo("0.00045");

        assertThat(http.get("/api/v1/usage", "pk-nobody").status()).isEqualTo(401);
        assertThat(http.get("/api/v1/admin/usage", k2Secret).status()).as("admin report needs the master key").isEqualTo(403);
    }
}
