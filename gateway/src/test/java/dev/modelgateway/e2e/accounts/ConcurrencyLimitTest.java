package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code max_concurrent}: a key's calls in flight at once, from admission to the ledger record, on one instance
 * (docs/accounts.md, "Concurrency"). The gateway here defaults keys to 3.
 */
@E2e
class ConcurrencyLimitTest {
    static final int DEFAULT = 3;
    static GatewayHarness h;
    static AdminApi admin;

    @BeforeAll
    static void start() {
        h = GatewayHarness.builder().defaultMaxConcurrent(DEFAULT).start();
        admin = new AdminApi(h);
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    static String mark() {
        return "id=" + UUID.randomUUID().toString().substring(0, 8);
    }

    static String chat(String directive) {
        return "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:" + directive + "]] hi\"}]}";
    }

    static HttpResponse<String> post(AdminApi.CreatedKey key, String path, String body) {
        return h.post(path, body, "authorization", "Bearer " + key.secret());
    }

    /** Starts {@code n} calls that each take {@code ms} at the vendor, and waits until the vendor has them all. */
    static List<CompletableFuture<HttpResponse<String>>> inFlight(AdminApi.CreatedKey key, int n, int ms) throws Exception {
        String mark = mark();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> post(key, "/api/v1/chat/completions", chat("delay_ms=" + ms + ";" + mark))));
        }
        awaitTrue(() -> h.sim.received().stream().filter(r -> r.body().contains(mark)).count() == n);
        return calls;
    }

    static void awaitTrue(Supplier<Boolean> condition) {
        Eventually.until("the condition", Duration.ofSeconds(5), condition::get);
    }

    @Test
    void aKeyBeyondItsLimitIsRefusedInTheCallersShapeNamingTheLimit() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"two-at-once\",\"max_concurrent\":2}");
        List<CompletableFuture<HttpResponse<String>>> slow = inFlight(key, 2, 1_500);

        HttpResponse<String> chat = post(key, "/api/v1/chat/completions", chat(mark()));
        assertThat(chat.statusCode()).as(chat.body()).isEqualTo(429);
        JsonNode error = Json.parseOrNull(chat.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("concurrency_limit_exceeded");
        assertThat(error.path("type").asText()).isEqualTo("rate_limit_error");
        assertThat(error.path("message").asText()).contains("max_concurrent 2");
        assertThat(chat.headers().firstValue("retry-after")).hasValue("1");

        HttpResponse<String> messages = post(key, "/api/v1/messages", "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":64,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(messages.statusCode()).isEqualTo(429);
        JsonNode body = Json.parseOrNull(messages.body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(body.at("/error/message").asText()).contains("max_concurrent 2");

        for (CompletableFuture<HttpResponse<String>> c : slow) assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(post(key, "/api/v1/chat/completions", chat(mark())).statusCode()).as("a slot came back").isEqualTo(200);

        List<LedgerRows.Row> rows = LedgerRows.await(h.databaseUrl, key.id(), 5);
        assertThat(rows).extracting(LedgerRows.Row::status).containsExactlyInAnyOrder(200, 200, 200, 429, 429);
        assertThat(rows).filteredOn(r -> r.status() == 429).allSatisfy(r -> assertThat(r.attempts()).isZero());
    }

    @Test
    void aKeyWithoutItsOwnLimitHasTheGatewaysDefault() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"default-limit\"}");
        List<CompletableFuture<HttpResponse<String>>> slow = inFlight(key, DEFAULT, 1_000);

        HttpResponse<String> refused = post(key, "/api/v1/chat/completions", chat(mark()));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Json.parseOrNull(refused.body()).at("/error/message").asText()).contains("max_concurrent " + DEFAULT);
        for (CompletableFuture<HttpResponse<String>> c : slow) assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }

    @Test
    void retriesOfOneCallHoldOneSlot() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"one-with-retries\",\"max_concurrent\":1}");
        String body = "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"max_retries\":2},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:status=503;times=2;retry_after_ms=100;" + mark() + "]] hi\"}]}";
        HttpResponse<String> r = post(key, "/api/v1/chat/completions", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("x-platform-attempts")).hasValue("3");
    }

    @Test
    void aStreamHoldsItsSlotUntilItEndsAlsoWhenTheCallerLeaves() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"one-stream\",\"max_concurrent\":1}");
        String stream = "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"[[sim:chunks=40;chunk_delay_ms=100;" + mark() + "]] hi\"}]}";
        try (Socket socket = new Socket("127.0.0.1", h.gateway.port())) {
            OutputStream out = socket.getOutputStream();
            byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
            out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key.secret()
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(head).isEqualTo("HTTP/1.1 200");

            HttpResponse<String> second = post(key, "/api/v1/chat/completions", chat(mark()));
            assertThat(second.statusCode()).as("the stream is still running").isEqualTo(429);
        }
        // the caller has left mid-stream: its ledger row is written, and with it the slot comes back
        LedgerRows.await(h.databaseUrl, key.id(), 2);
        assertThat(post(key, "/api/v1/chat/completions", chat(mark())).statusCode()).isEqualTo(200);
    }

    @Test
    void aRealtimeSessionHoldsOneSlotWhileItIsOpen() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"one-session\",\"max_concurrent\":1}");
        WebSocketClient ws = h.vertx.createWebSocketClient();
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(h.gateway.port())
                .setURI("/api/v1/realtime?model=platform/vendorB-realtime").addHeader("authorization", "Bearer " + key.secret());
        WebSocket first = ws.connect(options).await();

        assertThatThrownBy(() -> ws.connect(options).await()).isInstanceOfSatisfying(UpgradeRejectedException.class,
                e -> assertThat(e.getStatus()).isEqualTo(429));
        first.close().await();
        awaitTrue(() -> ws.connect(options).map(s -> {
            s.close();
            return true;
        }).otherwise(false).await());
        ws.close().await();
    }

    @Test
    void theSettingIsValidatedStoredShownAndCleared() {
        for (String bad : List.of("0", "-1", "1.5", "\"many\"", "1000001", "true")) {
            HttpResponse<String> r = admin.call("POST", "/api/v1/admin/keys", "{\"name\":\"bad\",\"max_concurrent\":" + bad + "}");
            assertThat(r.statusCode()).as(bad).isEqualTo(400);
            assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("max_concurrent");
        }
        HttpResponse<String> created = admin.call("POST", "/api/v1/admin/keys", "{\"name\":\"shown\",\"max_concurrent\":8}");
        JsonNode key = Json.parseOrNull(created.body());
        assertThat(key.path("max_concurrent").asInt()).isEqualTo(8);
        assertThat(key.path("effective_max_concurrent").asInt()).isEqualTo(8);

        String id = key.path("id").asText();
        assertThat(admin.get("/api/v1/admin/keys/" + id).path("max_concurrent").asInt()).isEqualTo(8);
        JsonNode cleared = admin.patch(id, "{\"max_concurrent\":null}");
        assertThat(cleared.path("max_concurrent").isNull()).isTrue();
        assertThat(cleared.path("effective_max_concurrent").asInt()).isEqualTo(DEFAULT);
        JsonNode limits = admin.get("/api/v1/admin/rate-limits");
        assertThat(limits.path("data")).filteredOn(k -> k.path("key_id").asText().equals(id))
                .singleElement().satisfies(k -> assertThat(k.path("max_concurrent").asInt()).isEqualTo(DEFAULT));
    }
}
