package dev.modelgateway.e2e.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.ServerLimits;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key is checked before the body is read (hardening items 2 and 18): a caller without a valid key gets
 * its 401 while its 32 MiB body is still unsent; a valid key's body, sent slowly, still arrives whole; the
 * admin API's 64 KiB cap applies; and the bodies held at once are bounded by the gateway-wide budget.
 */
@E2e
class BodyBeforeAuthTest {
    static GatewayHarness h;
    static final String COUNT = "{\"model\":\"platform/vendorB-5.5\",\"max_tokens\":100,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hello gateway, count me please\"}]}";
    static final long HUGE = 32L * 1024 * 1024;

    @BeforeAll
    static void start() {
        h = GatewayHarness.builder().limits(ServerLimits.DEFAULT.withMaxBufferedBodyBytes(200)).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void anonymousHugeBodyIsRefusedBeforeItIsSent() {
        try (RawHttp c = new RawHttp(h.gateway.port())) {
            c.head("/api/v1/chat/completions", null, HUGE, "application/json").send("{\"model\":\"platform/vendorB-5.5\",");
            RawHttp.Response r = c.read(3_000);
            assertThat(r.status()).isEqualTo(401);
            assertThat(Json.parseOrNull(r.body()).path("error").path("message").asText()).contains("Missing credentials");
            assertThat(c.closedWithin(3_000)).as("the connection is closed rather than the body drained").isTrue();
        }
    }

    @Test
    void invalidKeyHugeBodyIsRefusedBeforeItIsSent() {
        try (RawHttp c = new RawHttp(h.gateway.port())) {
            c.head("/api/v1/messages", "Bearer pk-not-a-key", HUGE, "application/json");
            RawHttp.Response r = c.read(3_000);
            assertThat(r.status()).isEqualTo(401);
            assertThat(Json.parseOrNull(r.body()).path("type").asText()).isEqualTo("error");
        }
    }

    @Test
    void anonymousMultipartBodyIsRefusedBeforeItIsSent() {
        try (RawHttp c = new RawHttp(h.gateway.port())) {
            c.head("/api/v1/audio/transcriptions", null, HUGE, "multipart/form-data; boundary=x");
            assertThat(c.read(3_000).status()).isEqualTo(401);
        }
    }

    @Test
    void validKeysBodySentSlowlyArrivesWhole() throws Exception {
        byte[] body = COUNT.getBytes(StandardCharsets.UTF_8);
        try (RawHttp c = new RawHttp(h.gateway.port())) {
            c.head("/api/count-message-tokens", "Bearer " + GatewayHarness.KEY, body.length, "application/json");
            int third = body.length / 3;
            // the input itself: a sender pausing between parts, so that the gateway reads them apart
            c.send(java.util.Arrays.copyOfRange(body, 0, third));
            Thread.sleep(300);
            c.send(java.util.Arrays.copyOfRange(body, third, 2 * third));
            Thread.sleep(300);
            c.send(java.util.Arrays.copyOfRange(body, 2 * third, body.length));
            RawHttp.Response r = c.read(5_000);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            assertThat(Json.parseOrNull(r.body()).path("input_tokens").asInt()).isPositive();
        }
    }

    @Test
    void declaredLengthOverTheRouteLimitIs413NamingIt() {
        try (RawHttp c = new RawHttp(h.gateway.port())) {
            c.head("/api/v1/messages", "Bearer " + GatewayHarness.KEY, HUGE + 1, "application/json");
            RawHttp.Response r = c.read(3_000);
            assertThat(r.status()).isEqualTo(413);
            JsonNode error = Json.parseOrNull(r.body()).path("error");
            assertThat(error.path("type").asText()).isEqualTo("request_too_large");
            assertThat(error.path("message").asText()).contains("32 MB");
        }
    }

    @Test
    void adminBodyOver64KiBIs413NamingTheLimit() {
        String name = "k".repeat(100 * 1024);
        var r = h.postAuthed("/api/v1/admin/keys", "{\"name\":\"" + name + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
        assertThat(Json.parseOrNull(r.body()).path("error").path("message").asText()).contains("64 KB");
    }

    @Test
    void bodiesBeyondTheBudgetGet503WithRetryAfter() {
        byte[] body = COUNT.getBytes(StandardCharsets.UTF_8);
        assertThat(body.length).isLessThan(200).isGreaterThan(100);
        try (RawHttp first = new RawHttp(h.gateway.port()); RawHttp second = new RawHttp(h.gateway.port())) {
            first.head("/api/count-message-tokens", "Bearer " + GatewayHarness.KEY, body.length, "application/json");
            first.send(java.util.Arrays.copyOfRange(body, 0, 10));
            // time for the gateway to read the first head and reserve its body (nothing outside shows the reservation)
            sleep(300);
            second.head("/api/count-message-tokens", "Bearer " + GatewayHarness.KEY, body.length, "application/json");
            RawHttp.Response refused = second.read(3_000);
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.headers()).containsEntry("retry-after", "1");
            assertThat(Json.parseOrNull(refused.body()).path("type").asText()).isEqualTo("error");

            first.send(java.util.Arrays.copyOfRange(body, 10, body.length));
            assertThat(first.read(5_000).status()).isEqualTo(200);
        }
        // the first body's reservation was given back
        assertThat(h.postAuthed("/api/count-message-tokens", COUNT).statusCode()).isEqualTo(200);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
