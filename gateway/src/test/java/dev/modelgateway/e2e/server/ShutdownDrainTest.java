package dev.modelgateway.e2e.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.observability.ObservabilityConfig;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shutdown's drain on a clock the test advances (docs/operations/shutdown-and-rollouts.md): {@code /ready} answers
 * 503 as it begins, the streams in flight go on and a short one completes, a new call is still served (told to close
 * its connection), and at {@code server.drain_seconds} the streams still running end with their protocol's error
 * event; every call has its ledger row. The same on a real process, with SIGTERM and the SDKs: DrainOnSigtermTest.
 */
@E2e
class ShutdownDrainTest {
    static final int DRAIN_SECONDS = 60;
    static final String CHAT_MODEL = "platform/vendorB-5.5";
    static final String MESSAGES_MODEL = "platform/vendorA-sonnet-4.5";

    final TestClock clock = new TestClock();
    final HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    GatewayHarness h;

    @AfterEach
    void stop() {
        if (h != null) h.close();
        http1.close();
    }

    @Test
    void readyTurnsFirstShortStreamsCompleteAndLongOnesEndWithTheErrorEventAtTheDeadline() throws Exception {
        h = GatewayHarness.builder().clock(clock).drainSeconds(DRAIN_SECONDS).start();
        String base = "http://127.0.0.1:" + h.gateway.port();
        // 400 events 50 ms apart: 20 s of real time, far past the moment the test moves the clock to the deadline
        Stream longChat = Stream.open(http1, base + "/api/v1/chat/completions", chat("[[sim:chunks=400;chunk_delay_ms=50]]"));
        Stream longMessages = Stream.open(http1, base + "/api/v1/messages", messages("[[sim:chunks=400;chunk_delay_ms=50]]"));
        Stream shortChat = Stream.open(http1, base + "/api/v1/chat/completions", chat("[[sim:chunks=8;chunk_delay_ms=150]]"));
        // an answer that is not a stream, whose vendor is still thinking at the deadline
        CompletableFuture<HttpResponse<String>> waiting = http1.sendAsync(post(base + "/api/v1/chat/completions",
                "{\"model\":\"" + CHAT_MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:delay_ms=20000]]\"}]}"),
                HttpResponse.BodyHandlers.ofString());
        Eventually.until("the three streams have begun", () -> longChat.events() > 1 && longMessages.events() > 1
                && shortChat.events() > 1);
        Eventually.until("the vendor has the waiting call", () -> h.sim.received().size() == 4);

        Future<Void> stopping = h.gateway.stop();
        HttpResponse<String> ready = h.get("/ready");
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).contains("draining");

        HttpResponse<String> late = http1.send(post(base + "/api/v1/chat/completions",
                "{\"model\":\"" + CHAT_MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"late\"}]}"),
                HttpResponse.BodyHandlers.ofString());
        assertThat(late.statusCode()).as(late.body()).isEqualTo(200);
        assertThat(late.headers().firstValue("connection")).as("a call arriving during the drain is served, its connection"
                + " then closed").hasValue("close");

        shortChat.awaitEnd();
        assertThat(shortChat.lastData()).isEqualTo("[DONE]");
        assertThat(longChat.ended() || longMessages.ended() || stopping.isComplete())
                .as("the long streams run on until the deadline").isFalse();

        clock.advance(Duration.ofSeconds(DRAIN_SECONDS));
        longChat.awaitEnd();
        longMessages.awaitEnd();
        JsonNode chatError = Json.parseOrNull(longChat.lastData()).path("error");
        assertThat(chatError.path("code").asText()).isEqualTo("server_shutting_down");
        assertThat(longMessages.lastEvent()).isEqualTo("error");
        assertThat(Json.parseOrNull(longMessages.lastData()).path("error").path("message").asText()).contains("shutting down");
        HttpResponse<String> refused = waiting.get(10, TimeUnit.SECONDS);
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("retry-after")).hasValue("1");
        assertThat(Json.parseOrNull(refused.body()).path("error").path("code").asText()).isEqualTo("server_shutting_down");
        Eventually.until("the gateway stopped", stopping::isComplete);
        assertThat(stopping.succeeded()).isTrue();

        List<Map<String, Object>> chatRows = h.ledger(CHAT_MODEL, 4);
        List<Map<String, Object>> messageRows = h.ledger(MESSAGES_MODEL, 1);
        assertThat(chatRows).as("the long, short, late and waiting calls' rows").hasSize(4);
        assertThat(messageRows).hasSize(1);
        Map<String, Object> cut = chatRows.stream().filter(r -> longChat.traceId().equals(r.get("trace_id"))).findFirst().orElseThrow();
        assertThat(((Number) cut.get("status")).intValue()).isEqualTo(503);
        assertThat(((Number) cut.get("output_tokens")).longValue()).as("what was streamed is billed").isPositive();
        assertThat(((Number) messageRows.getFirst().get("status")).intValue()).isEqualTo(503);
        assertThat(((Number) messageRows.getFirst().get("output_tokens")).longValue()).isPositive();
    }

    @Test
    void theMetricsPortsReadyTurnsToo() throws Exception {
        int metricsPort = FreePort.pick();
        h = GatewayHarness.builder().clock(clock).drainSeconds(DRAIN_SECONDS)
                .observability(ObservabilityConfig.DEFAULT.withMetricsPort(metricsPort)).start();
        URI ready = URI.create("http://127.0.0.1:" + metricsPort + "/ready");
        assertThat(http1.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        Stream running = Stream.open(http1, "http://127.0.0.1:" + h.gateway.port() + "/api/v1/chat/completions",
                chat("[[sim:chunks=400;chunk_delay_ms=50]]"));
        Eventually.until("the stream has begun", () -> running.events() > 1);

        Future<Void> stopping = h.gateway.stop();
        HttpResponse<String> answer = http1.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(503);
        assertThat(running.ended()).isFalse();

        clock.advance(Duration.ofSeconds(DRAIN_SECONDS));
        running.awaitEnd();
        assertThat(Json.parseOrNull(running.lastData()).path("error").path("code").asText()).isEqualTo("server_shutting_down");
        Eventually.until("the gateway stopped", stopping::isComplete);
    }

    private static String chat(String prompt) {
        return "{\"model\":\"" + CHAT_MODEL + "\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}";
    }

    private static String messages(String prompt) {
        return "{\"model\":\"" + MESSAGES_MODEL + "\",\"max_tokens\":4096,\"stream\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}";
    }

    private static HttpRequest post(String url, String body) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json").header("authorization", "Bearer " + GatewayHarness.KEY)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    /** One streamed answer, its lines collected as they arrive. */
    private record Stream(List<String> lines, CompletableFuture<Void> done, HttpResponse<java.util.stream.Stream<String>> response) {
        static Stream open(HttpClient http, String url, String body) throws Exception {
            HttpResponse<java.util.stream.Stream<String>> r = http.send(post(url, body), HttpResponse.BodyHandlers.ofLines());
            assertThat(r.statusCode()).isEqualTo(200);
            Stream s = new Stream(new CopyOnWriteArrayList<>(), new CompletableFuture<>(), r);
            Thread.ofVirtual().start(() -> {
                try (java.util.stream.Stream<String> in = r.body()) {
                    in.forEach(s.lines::add);
                    s.done.complete(null);
                } catch (RuntimeException e) {
                    s.done.completeExceptionally(e); // a broken transfer
                }
            });
            return s;
        }

        long events() {
            return lines.stream().filter(l -> l.startsWith("data:")).count();
        }

        boolean ended() {
            return done.isDone();
        }

        /** Waits for the end of the transfer, which must be a whole chunked body, never a broken one. */
        void awaitEnd() {
            Eventually.until("the stream ended", done::isDone);
            assertThat(done).as("ended as a complete HTTP response").isCompleted();
        }

        String traceId() {
            return response.headers().firstValue("x-platform-trace-id").orElseThrow();
        }

        String lastData() {
            String last = lines.stream().filter(l -> l.startsWith("data:")).reduce((a, b) -> b).orElseThrow();
            return last.substring("data:".length()).trim();
        }

        String lastEvent() {
            String last = lines.stream().filter(l -> l.startsWith("event:")).reduce((a, b) -> b).orElseThrow();
            return last.substring("event:".length()).trim();
        }
    }
}
