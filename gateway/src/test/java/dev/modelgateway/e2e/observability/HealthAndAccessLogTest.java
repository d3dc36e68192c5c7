package dev.modelgateway.e2e.observability;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.observability.ObservabilityConfig;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.server.Version;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /health} (with each vendor's health) and {@code /ready} (the database; never a vendor's outage) on the main port, and the
 * access log as JSON lines carrying the call's tokens, TTFT and cost (docs/observability.md).
 */
@E2e
@Isolated
class HealthAndAccessLogTest {
    static GatewayHarness h;
    static ListAppender<ILoggingEvent> access = new ListAppender<>();

    @BeforeAll
    static void start() {
        access.start();
        ((Logger) LoggerFactory.getLogger("access")).addAppender(access);
        // vendor D unreachable, and a breaker that opens after one failure; no Redis, whose shared cooldowns would
        // carry the open breakers over to the next run
        h = GatewayHarness.builder()
                .baseUrl(Vendor.DASHSCOPE, "http://127.0.0.1:" + FreePort.pick() + "/v1")
                .breaker(new CircuitBreaker.Thresholds(1, Duration.ofMinutes(5)))
                .observability(ObservabilityConfig.DEFAULT.withAccessLogJson(true)).start();
    }

    @AfterAll
    static void stop() {
        ((Logger) LoggerFactory.getLogger("access")).detachAppender(access);
        if (h != null) h.close();
    }

    @Test
    void readinessNamesWhatIsNotReady() {
        assertThat(h.get("/health").statusCode()).isEqualTo(200);
        HttpResponse<String> ready = h.get("/ready");
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        JsonNode checks = Json.parseOrNull(ready.body()).path("checks");
        assertThat(checks.path("database").asText()).isEqualTo("ok");
        assertThat(checks.has("redis")).isFalse();
        assertThat(checks.has("vendors")).isFalse();
        assertThat(Json.parseOrNull(h.get("/health").body()).at("/vendors/dashscope").asText()).isEqualTo("ok");

        // a failed call to each of vendor D's deployments (two chat models, one embedding model) opens their
        // breakers: no usable deployment of the vendor is left, which /health and the metrics show; the instance still
        // serves vendors A to C, so it stays ready (a load balancer pulling it would cut them too)
        for (String model : List.of("vendorD-plus-latest", "vendorD-max-latest")) {
            HttpResponse<String> failed = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + model + "\","
                    + "\"platform_options\":{\"max_retries\":1,\"timeout\":2},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            assertThat(failed.statusCode()).as(failed.body()).isGreaterThanOrEqualTo(500);
        }
        HttpResponse<String> embedding = h.postAuthed("/api/v1/embeddings", "{\"model\":\"vendorD-text-embedding-v4\",\"input\":\"hi\"}");
        assertThat(embedding.statusCode()).as(embedding.body()).isGreaterThanOrEqualTo(500);
        HttpResponse<String> stillReady = h.get("/ready");
        assertThat(stillReady.statusCode()).as(stillReady.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(stillReady.body()).path("status").asText()).isEqualTo("ready");
        HttpResponse<String> health = h.get("/health");
        assertThat(health.statusCode()).isEqualTo(200);
        // the release, as the pom names it (docs/release.md): X.Y.Z or X.Y.Z-SNAPSHOT
        assertThat(Json.parseOrNull(health.body()).path("version").asText()).isEqualTo(Version.current())
                .matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        JsonNode vendors = Json.parseOrNull(health.body()).path("vendors");
        assertThat(vendors.path("dashscope").asText()).isEqualTo("circuit_open");
        assertThat(vendors.path("openai").asText()).isEqualTo("ok");
        assertThat(h.get("/metrics").body()).contains("gateway_circuit_breaker_state{deployment=\"dashscope/vendorD-plus-latest\"} 2.0");
    }

    @Test
    void theAccessLogIsJsonLinesWithTheCallsFacts() {
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions",
                "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(r.statusCode()).isEqualTo(200);
        String traceId = r.headers().firstValue("X-Platform-Trace-Id").orElseThrow();
        JsonNode line = awaitLine(traceId);
        assertThat(line.path("method").asText()).isEqualTo("POST");
        assertThat(line.path("route").asText()).isEqualTo("/api/v1/chat/completions");
        assertThat(line.path("status").asInt()).isEqualTo(200);
        assertThat(line.path("key_id").asText()).isEqualTo("master");
        assertThat(line.path("model").asText()).isEqualTo("platform/vendorB-5.5");
        assertThat(line.path("answered_model").asText()).isEqualTo("platform/vendorB-5.5");
        assertThat(line.path("ttft_ms").isNumber()).isTrue();
        assertThat(line.path("latency_ms").asDouble()).isGreaterThanOrEqualTo(line.path("ttft_ms").asDouble());
        assertThat(line.path("cost_usd").asDouble()).isPositive();
        Map<String, Object> row = h.ledger("platform/vendorB-5.5", 1).stream()
                .filter(x -> traceId.equals(x.get("trace_id"))).findFirst().orElseThrow();
        assertThat(line.path("tokens").path("output").asLong()).isEqualTo(((Number) row.get("output_tokens")).longValue());
        assertThat(line.path("tokens").path("input").asLong()).isEqualTo(((Number) row.get("input_tokens")).longValue());
        assertThat(line.toString()).doesNotContain(GatewayHarness.KEY);
    }

    static JsonNode awaitLine(String traceId) {
        return Eventually.value("the access line of " + traceId, Duration.ofSeconds(10), () -> List.copyOf(access.list).stream()
                .map(e -> Json.parseOrNull(e.getFormattedMessage()))
                .filter(line -> line != null && traceId.equals(line.path("trace_id").asText())).findFirst(),
                Optional::isPresent).orElseThrow();
    }
}
