package dev.modelgateway.accounts;

import dev.modelgateway.access.Actor;

import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.modelgateway.accounts.Fixtures.await;
import static dev.modelgateway.accounts.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** Requests- and tokens-per-minute limits, with counters in this process or in Redis. */
abstract class RateLimitContract {
    static final String MODEL = "platform/vendorA-small";
    static final String MASTER = "rate-limit-master";

    @TempDir
    Path dir;
    Vertx vertx;
    Accounts accounts;

    /** Null for in-process counters. */
    abstract String redisUrl();

    abstract String redisPrefix();

    @BeforeEach
    void open() {
        vertx = Vertx.vertx();
        accounts = await(Accounts.open(vertx, new AccountsConfig("jdbc:sqlite:" + dir.resolve("gateway.db"), redisUrl(),
                MASTER, redisPrefix()), Fixtures.PRICES));
    }

    @AfterEach
    void close() {
        await(accounts.close());
        await(vertx.close());
    }

    ApiKey newKey(Long rpm, Long tpm) {
        var created = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("limited", List.of(), rpm, tpm, null, null), false));
        return await(accounts.authenticate(created.secret()));
    }

    @Test
    void requestsPerMinuteWithHeadersThen429AndRetryAfter() {
        ApiKey key = newKey(2L, null);
        Map<String, String> first = await(accounts.admit(key, MODEL, 50)).headers();
        assertThat(first).containsEntry("x-ratelimit-limit-requests", "2")
                .containsEntry("x-ratelimit-remaining-requests", "1")
                .doesNotContainKey("x-ratelimit-limit-tokens");
        // One of two requests used: the bucket is full again in half a minute.
        assertThat(first.get("x-ratelimit-reset-requests")).matches("(29\\.\\d+|30)s");
        assertThat(await(accounts.admit(key, MODEL, 50)).headers()).containsEntry("x-ratelimit-remaining-requests", "0");

        GatewayException e = (GatewayException) failure(accounts.admit(key, MODEL, 50));
        assertThat(e.status()).isEqualTo(429);
        assertThat(e.code()).isEqualTo("rate_limit_exceeded");
        assertThat(e.getMessage()).contains("2 requests per minute");
        assertThat(e.headers()).containsEntry("x-ratelimit-remaining-requests", "0");
        // A new request every 30 s: the next one fits in at most 30 s.
        assertThat(Long.parseLong(e.headers().get("retry-after"))).isBetween(29L, 30L);
        assertThat(Long.parseLong(e.headers().get("retry-after-ms"))).isBetween(28_000L, 30_000L);
    }

    @Test
    void tokensPerMinuteCorrectedBySettle() {
        ApiKey key = newKey(null, 1000L);
        Admission first = await(accounts.admit(key, MODEL, 600));
        assertThat(first.headers()).containsEntry("x-ratelimit-limit-tokens", "1000")
                .containsEntry("x-ratelimit-remaining-tokens", "400")
                .doesNotContainKey("x-ratelimit-limit-requests");

        GatewayException e = (GatewayException) failure(accounts.admit(key, MODEL, 600));
        assertThat(e.status()).isEqualTo(429);
        assertThat(e.getMessage()).contains("1000 tokens per minute");
        // 200 tokens missing at 1000 per minute: 12 s.
        assertThat(Long.parseLong(e.headers().get("retry-after"))).isBetween(11L, 12L);

        first.settle(100); // the request used 100, not 600: 500 come back
        first.settle(100); // settling twice changes nothing
        Admission second = await(accounts.admit(key, MODEL, 600));
        assertThat(remainingTokens(second)).isBetween(300L, 310L);

        second.settle(900); // 300 more than estimated: the bucket is (nearly) empty, refilling at 1000/min
        GatewayException again = (GatewayException) failure(accounts.admit(key, MODEL, 50));
        // What refilled between the calls (about 17 tokens a second on a slow machine) must stay under 50.
        assertThat(Long.parseLong(again.headers().get("x-ratelimit-remaining-tokens"))).isLessThan(50L);
    }

    @Test
    void requestLargerThanTheMinuteAllowanceWaitsForAFullBucket() {
        ApiKey key = newKey(null, 1000L);
        Admission huge = await(accounts.admit(key, MODEL, 5000));
        assertThat(huge.headers()).containsEntry("x-ratelimit-remaining-tokens", "0");
        GatewayException e = (GatewayException) failure(accounts.admit(key, MODEL, 5000));
        // 4000 tokens of debt plus a full bucket of 1000: five minutes.
        assertThat(e.headers().get("x-ratelimit-reset-tokens")).matches("4m59\\.\\d+s|5m0s");
        assertThat(Long.parseLong(e.headers().get("retry-after"))).isBetween(299L, 300L);
    }

    @Test
    void unlimitedKeysAndTheMasterKeyGetNoHeaders() {
        assertThat(await(accounts.admit(newKey(null, null), MODEL, 1_000_000)).headers()).isEmpty();
        assertThat(await(accounts.admit(await(accounts.authenticate(MASTER)), MODEL, 1_000_000)).headers()).isEmpty();
    }

    @Test
    void rateLimitViewShowsLimitsAndConsumption() {
        var http = Fixtures.Server.start(vertx, accounts);
        ApiKey limited = newKey(10L, 1000L);
        ApiKey free = newKey(null, null);
        await(accounts.admit(limited, MODEL, 300));
        await(accounts.admit(limited, MODEL, 200));

        var view = http.get("/api/v1/admin/rate-limits", MASTER);
        assertThat(view.status()).isEqualTo(200);
        Map<String, JsonObject> byKey = new HashMap<>();
        view.json().getJsonArray("data").forEach(o -> byKey.put(((JsonObject) o).getString("key_id"), (JsonObject) o));
        JsonObject l = byKey.get(limited.id());
        assertThat(l.getLong("rpm")).isEqualTo(10);
        assertThat(l.getJsonObject("requests").getLong("limit")).isEqualTo(10);
        assertThat(l.getJsonObject("requests").getLong("used")).isEqualTo(2);
        assertThat(l.getJsonObject("requests").getLong("remaining")).isEqualTo(8);
        // Buckets refill continuously (1000 tokens a minute is 17 a second): allow for a slow machine.
        assertThat(l.getJsonObject("tokens").getLong("used")).isBetween(450L, 500L);
        assertThat(l.getJsonObject("tokens").getLong("remaining")).isBetween(500L, 550L);
        assertThat(byKey.get(free.id()).getValue("requests")).isNull();
        assertThat(http.get("/api/v1/admin/rate-limits", null).status()).isEqualTo(401);
    }

    @Test
    void modelLimitsAddBucketsTakenTogetherWithTheKeys() {
        var created = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("per-model", List.of(), 10L, null, null, null,
                List.of(new ModelLimit("platform/vendorA-*", 2L, null), new ModelLimit("platform/*", null, 5000L)), null), false));
        ApiKey key = await(accounts.authenticate(created.secret()));
        String other = "platform/vendorB-any";

        // The tighter scope (2 per minute for vendorA models) shows in the headers.
        assertThat(await(accounts.admit(key, MODEL, 10)).headers()).containsEntry("x-ratelimit-limit-requests", "2")
                .containsEntry("x-ratelimit-remaining-requests", "1");
        await(accounts.admit(key, MODEL, 10));
        GatewayException e = (GatewayException) failure(accounts.admit(key, MODEL, 10));
        assertThat(e.status()).isEqualTo(429);
        assertThat(e.getMessage()).contains("on models 'platform/vendorA-*'").contains("2 requests per minute");
        assertThat(Long.parseLong(e.headers().get("retry-after"))).isBetween(29L, 30L);

        // Only the first matching glob applies: vendorB models draw on the key (8 left: the refusal took nothing)
        // and on the platform/* token bucket.
        Map<String, String> b = await(accounts.admit(key, other, 2500)).headers();
        assertThat(b).containsEntry("x-ratelimit-limit-requests", "10").containsEntry("x-ratelimit-remaining-requests", "7")
                .containsEntry("x-ratelimit-limit-tokens", "5000").containsEntry("x-ratelimit-remaining-tokens", "2500");

        var view = Fixtures.Server.start(vertx, accounts).get("/api/v1/admin/rate-limits", MASTER);
        JsonObject mine = view.json().getJsonArray("data").stream().map(o -> (JsonObject) o)
                .filter(o -> o.getString("key_id").equals(key.id())).findFirst().orElseThrow();
        assertThat(mine.getJsonObject("requests").getLong("used")).isEqualTo(3);
        var models = mine.getJsonArray("model_limits");
        assertThat(models.getJsonObject(0).getString("models")).isEqualTo("platform/vendorA-*");
        assertThat(models.getJsonObject(0).getJsonObject("requests").getLong("used")).isEqualTo(2);
        assertThat(models.getJsonObject(0).getValue("tokens")).isNull();
        assertThat(models.getJsonObject(1).getJsonObject("tokens").getLong("used")).as("refills at 83 a second").isBetween(1500L, 2500L);
    }

    @Test
    void modelLimitsAloneLimitOnlyTheirModels() {
        var created = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("model-only", List.of(), null, null, null, null,
                List.of(new ModelLimit("platform/vendorA-*", 1L, null)), null), false));
        ApiKey key = await(accounts.authenticate(created.secret()));
        await(accounts.admit(key, MODEL, 10));
        assertThat(((GatewayException) failure(accounts.admit(key, MODEL, 10))).status()).isEqualTo(429);
        assertThat(await(accounts.admit(key, "platform/vendorB-any", 10)).headers()).isEmpty();
    }

    static long remainingTokens(Admission a) {
        return Long.parseLong(a.headers().get("x-ratelimit-remaining-tokens"));
    }
}
