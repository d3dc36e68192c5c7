package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.http.TraceId;
import dev.modelgateway.json.Json;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway whose Redis has stopped answering (connections open, no replies) still stops within its bound, lets
 * the call in flight finish, and writes the usage of every call it served: a supervisor's SIGKILL after its
 * grace period finds nothing left to lose (docs/configuration.md, "Shutdown").
 */
@E2e
@ExternalStores
class StopWithHungRedisTest {
    static final String MODEL = "platform/vendorA-sonnet-4.5";
    /**
     * The drain (5 s, only while a call is in flight) and the Redis closes (2 s each), with room for a slow machine;
     * below the 15 s after which serve's shutdown hook gave up while the Redis closes were unbounded.
     */
    static final long STOP_BOUND_SECONDS = 12;

    SharedStores stores;
    /** Owns the simulator; its own Redis is the real one. */
    GatewayHarness owner;
    HungRedis redis;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores();
        owner = stores.gateway().start();
        redis = new HungRedis(owner.vertx);
    }

    @AfterEach
    void stop() throws Exception {
        redis.close();
        owner.close();
        stores.close();
    }

    private static String body(String text, boolean stream) {
        return "{\"model\":\"" + MODEL + "\",\"max_tokens\":64,\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}";
    }

    @Test
    void stopsWithinItsBoundAndTheLedgerHasEveryCall() throws Exception {
        String url = stores.redisUrl().replace("127.0.0.1:6379", "127.0.0.1:" + redis.port());
        GatewayHarness g = stores.gateway().redis(url).simulator(owner.sim).start();
        AdminApi.CreatedKey key = new AdminApi(g).create("{\"name\":\"hung\",\"rpm\":1000,\"max_concurrent\":10,\"budget_usd\":100}");
        String bearer = "Bearer " + key.secret();
        List<String> traces = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = g.post("/api/v1/messages", body("hi", false), "authorization", bearer);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            traces.add(r.headers().firstValue(TraceId.HEADER).orElseThrow());
        }

        redis.hang();
        // admitted without Redis (each Redis step waits its 1 s timeout), then still streaming when the stop begins
        String mark = "in flight at the stop [[sim:chunk_delay_ms=300;chunks=6]]";
        CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(
                () -> g.postHttp1("/api/v1/messages", body(mark, true), "authorization", bearer));
        owner.sim.awaitReceived(log -> log.stream().anyMatch(q -> q.body().contains("in flight at the stop")), 10_000).await();

        long started = System.nanoTime();
        g.gateway.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        g.vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(tookMs).as("ms to stop").isLessThan(STOP_BOUND_SECONDS * 1000);

        HttpResponse<String> finished = inFlight.get(10, TimeUnit.SECONDS);
        assertThat(finished.statusCode()).isEqualTo(200);
        assertThat(finished.body()).as("the call in flight was let finish").contains("event: message_stop");
        traces.add(finished.headers().firstValue(TraceId.HEADER).orElseThrow());
        assertThat(LedgerRows.read(stores.databaseUrl(), key.id())).extracting(LedgerRows.Row::traceId)
                .as("every call's ledger row, written before the stop returned").containsExactlyInAnyOrderElementsOf(traces);
    }

    /** {@code serve} in its own JVM, as a supervisor runs it, then SIGTERM while Redis is hung. */
    @Test
    void serveExitsWithinItsBoundOnSigtermWithItsLedgerWritten() throws Exception {
        int port = FreePort.pick();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.modelgateway.Main", "serve");
        pb.environment().putAll(Map.of("GATEWAY_SERVER_HOST", "127.0.0.1", "GATEWAY_SERVER_PORT", Integer.toString(port),
                "GATEWAY_SERVER_MASTER_KEY", GatewayHarness.KEY, "GATEWAY_ACCOUNTS_DATABASE_URL", stores.databaseUrl(),
                "GATEWAY_ACCOUNTS_REDIS_URL", stores.redisUrl().replace("127.0.0.1:6379", "127.0.0.1:" + redis.port()),
                "ANTHROPIC_BASE_URL", owner.sim.baseUrl() + "/anthropic", "ANTHROPIC_API_KEY", SimKeys.defaults().anthropic()));
        pb.redirectErrorStream(true);
        Path output = Files.createTempFile("gw-serve", ".log");
        pb.redirectOutput(output.toFile());
        Process p = pb.start();
        try {
            String base = "http://127.0.0.1:" + port + "/api/v1";
            Eventually.until("started within a minute", Duration.ofMinutes(1), () -> {
                String log = read(output);
                assertThat(p.isAlive()).as(log).isTrue();
                return log.contains("listening on");
            });
            HttpResponse<String> created = post(base + "/admin/keys", "{\"name\":\"sigterm\",\"rpm\":1000}", GatewayHarness.KEY);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode key = Json.parseOrNull(created.body());
            List<String> traces = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                if (i == 2) redis.hang();
                HttpResponse<String> r = post(base + "/messages", body("hi", false), key.path("key").asText());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                traces.add(r.headers().firstValue(TraceId.HEADER).orElseThrow());
            }

            long started = System.nanoTime();
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(STOP_BOUND_SECONDS, TimeUnit.SECONDS)).as("exited within its bound; output: " + Files.readString(output)).isTrue();
            assertThat(Files.readString(output)).contains("Model Gateway stopped").doesNotContain("did not complete cleanly");
            assertThat(LedgerRows.read(stores.databaseUrl(), key.path("id").asText())).extracting(LedgerRows.Row::traceId)
                    .containsExactlyInAnyOrderElementsOf(traces);
        } finally {
            p.destroyForcibly();
        }
    }

    private static HttpResponse<String> post(String url, String json, String bearer) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                    .header("content-type", "application/json").header("authorization", "Bearer " + bearer)
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
