package dev.modelgateway.e2e.routing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorPool;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway's own saturation is not the vendor's failure (issue 13): with two connections to vendor B and
 * one queue place (one event loop), two slow streams fill the pool; a call whose deadline passes in the queue,
 * and a call finding the queue full, get 503 {@code gateway_overloaded} with {@code retry-after} in their own
 * protocol's shape, while a breaker that one vendor failure would open stays closed: the queued call is
 * served once a stream ends, and so is the next one.
 */
@E2e
@Isolated
class PoolSaturationTest {
    static GatewayHarness h;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() {
        h = GatewayHarness.builder().eventLoops(1).pool(Vendor.OPENAI, new VendorPool(2, 1))
                .breaker(new CircuitBreaker.Thresholds(1, Duration.ofSeconds(30))).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    /**
     * A caller who leaves while its call waits for a connection: when one comes free, the call is dropped before
     * it is sent, which is no vendor failure and no error for the log (Vert.x logs a reset request without an
     * exception handler at ERROR, "Stream reset: 0").
     */
    @Test
    void callersLeavingWhileQueuedAreNeitherVendorFailuresNorErrors() throws Exception {
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(logged);
        try {
            List<CompletableFuture<HttpResponse<String>>> slow = slowStreams("hold ");
            try (Socket socket = new Socket("127.0.0.1", h.gateway.port())) {
                byte[] body = ("{\"model\":\"platform/vendorB-5.5\",\"stream\":true,\"messages\":"
                        + "[{\"role\":\"user\",\"content\":\"gone while queued\"}]}").getBytes(StandardCharsets.UTF_8);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer " + GatewayHarness.KEY
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                out.write(body);
                out.flush();
                Eventually.until("the call queued behind the two streams", () -> h.upstreamCalls() == 3);
            }
            for (var s : slow) assertThat(s.get().statusCode()).isEqualTo(200);
            var after = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\","
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"after the leavers\"}]}");
            assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
            assertThat(h.sim.received()).noneMatch(r -> r.body().contains("gone while queued"));
            assertThat(logged.list).as("warnings and errors logged").noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.WARN));
        } finally {
            root.detachAppender(logged);
        }
    }

    /**
     * Two streams of 40 events 150 ms apart, holding both connections for about 6 s: time for the calls queued
     * behind them to settle in order on a loaded machine, long before a queued call would be served.
     */
    private static List<CompletableFuture<HttpResponse<String>>> slowStreams(String marker) {
        List<CompletableFuture<HttpResponse<String>>> slow = IntStream.range(0, 2).mapToObj(i -> send("/api/v1/chat/completions",
                "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":"
                        + "\"[[sim:chunks=40;chunk_delay_ms=150]] " + marker + i + "\"}]}")).toList();
        h.sim.awaitReceived(list -> list.stream().filter(r -> r.body().contains(marker)).count() == 2, 5_000).await();
        return slow;
    }

    @Test
    void aSaturatedPoolIsTheGatewaysOverloadNeverTheVendorsFailure() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> slow = slowStreams("slow ");

        // its deadline passes while it waits for a connection: the gateway's condition, not a vendor timeout
        var queuedTooLong = send("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":"
                + "{\"timeout\":0.4},\"messages\":[{\"role\":\"user\",\"content\":\"deadline in the queue\"}]}").get();
        assertOverloaded(queuedTooLong);
        assertThat(Json.parseOrNull(queuedTooLong.body()).at("/error/code").asText()).isEqualTo("gateway_overloaded");

        // one call takes the queue's only place; the next finds it full and is refused at once, in its own shape
        var waiting = send("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"waiting for a connection\"}]}");
        // it must hold the queue's place before the next call comes
        Eventually.until("the call queued behind the two streams", () -> h.upstreamCalls() == 3);
        long t0 = System.nanoTime();
        var refused = send("/api/v1/messages", "{\"model\":\"platform/vendorB-5.5\",\"max_tokens\":50,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"queue full\"}]}").get();
        assertThat((System.nanoTime() - t0) / 1_000_000).as("refused at once").isLessThan(1_500);
        assertOverloaded(refused);
        JsonNode anthropicError = Json.parseOrNull(refused.body());
        assertThat(anthropicError.path("type").asText()).isEqualTo("error");
        assertThat(anthropicError.at("/error/message").asText()).contains("The gateway is overloaded");

        // nothing of this reached the vendor or its breaker: the queued call and the slow streams are served
        assertThat(h.sim.received()).noneMatch(r -> r.body().contains("queue full") || r.body().contains("deadline in the queue"));
        assertThat(waiting.get().statusCode()).as(waiting.get().body()).isEqualTo(200);
        for (var s : slow) {
            assertThat(s.get().statusCode()).isEqualTo(200);
            assertThat(s.get().body()).contains("[DONE]");
        }
        var after = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"after the rush\"}]}");
        assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
    }

    private static void assertOverloaded(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(response.headers().firstValue("retry-after")).hasValue("1");
        assertThat(response.body()).contains("The gateway is overloaded").doesNotContain("circuit");
    }

    private static CompletableFuture<HttpResponse<String>> send(String path, String body) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + h.gateway.port() + path))
                .timeout(Duration.ofSeconds(20))
                .header("authorization", "Bearer " + GatewayHarness.KEY)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
