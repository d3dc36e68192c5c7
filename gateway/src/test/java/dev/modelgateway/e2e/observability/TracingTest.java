package dev.modelgateway.e2e.observability;

import dev.modelgateway.canary.Canaries;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.observability.Redaction;
import dev.modelgateway.observability.ObservabilityConfig;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.opentelemetry.proto.trace.v1.Span;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import static dev.modelgateway.e2e.observability.OtlpReceiver.attr;
import static dev.modelgateway.e2e.observability.OtlpReceiver.hex;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Traces exported over OTLP/HTTP (protobuf) to a collector in the test, for a call with a retry and a cross-vendor
 * fallback: one server span, three attempt spans under it, the GenAI attributes, and the trace id the caller sees in
 * {@code X-Platform-Trace-Id}; a caller's {@code traceparent} is continued and passed upstream (docs/observability.md).
 */
@E2e
class TracingTest {
    static Vertx vertx;
    static OtlpReceiver collector;
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        collector = OtlpReceiver.start(vertx);
        h = GatewayHarness.builder().observability(ObservabilityConfig.DEFAULT
                .withAttributePrefix("x-trace-attr-")
                .withCaptureContent(true)
                .withOtel(Map.of(
                        "otel.exporter.otlp.endpoint", collector.endpoint(),
                        "otel.exporter.otlp.protocol", "http/protobuf",
                        // export each span at once rather than after the default 5 s
                        "otel.bsp.schedule.delay", "50"))).start();
    }

    @AfterAll
    static void stop() {
        if (h != null) h.close();
        if (collector != null) collector.close();
        if (vertx != null) vertx.close().await();
    }

    static String unique() {
        return "id=" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void retryAndFallbackShowAsThreeAttemptSpansUnderTheServerSpan() {
        String mark = unique();
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\","
                        + "\"platform_options\":{\"max_retries\":1,\"fallbacks\":[\"platform/vendorA-sonnet-4.5\"]},"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:status=500;times=2;" + mark + "]] hi\"}]}",
                "x-trace-attr-tenant", "acme");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("x-platform-attempts")).hasValue("3");
        String traceId = r.headers().firstValue("X-Platform-Trace-Id").orElseThrow();

        List<Span> spans = await(() -> collector.trace(traceId), 4);
        Span server = spans.stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER).findFirst().orElseThrow();
        List<Span> attempts = spans.stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT)
                .sorted((a, b) -> Long.compare(a.getStartTimeUnixNano(), b.getStartTimeUnixNano())).toList();
        assertThat(spans).hasSize(4);
        assertThat(attempts).hasSize(3).allSatisfy(a -> {
            assertThat(a.getParentSpanId()).isEqualTo(server.getSpanId());
            assertThat(attr(a, "gen_ai.operation.name")).isEqualTo("chat");
        });

        assertThat(server.getName()).isEqualTo("POST /api/v1/chat/completions");
        assertThat(attr(server, "http.route")).isEqualTo("/api/v1/chat/completions");
        assertThat(attr(server, "http.request.method")).isEqualTo("POST");
        assertThat(attr(server, "http.response.status_code")).isEqualTo("200");
        assertThat(attr(server, "gen_ai.operation.name")).isEqualTo("chat");
        assertThat(attr(server, "gen_ai.request.model")).isEqualTo("platform/vendorB-5.5");
        assertThat(attr(server, "gen_ai.response.model")).isEqualTo("platform/vendorA-sonnet-4.5");
        assertThat(attr(server, "gen_ai.provider.name")).isEqualTo("anthropic");
        assertThat(attr(server, "gateway.attempts")).isEqualTo("3");
        assertThat(Long.parseLong(attr(server, "gen_ai.usage.input_tokens"))).isPositive();
        assertThat(Long.parseLong(attr(server, "gen_ai.usage.output_tokens"))).isPositive();
        assertThat(attr(server, "gen_ai.usage.cache_read.input_tokens")).isEqualTo("0");
        assertThat(attr(server, "tenant")).isEqualTo("acme");

        Span first = attempts.get(0), retry = attempts.get(1), fallback = attempts.get(2);
        assertThat(List.of(first, retry)).allSatisfy(a -> {
            assertThat(a.getName()).isEqualTo("chat vendorB-5.5");
            assertThat(attr(a, "gen_ai.provider.name")).isEqualTo("openai");
            assertThat(attr(a, "gen_ai.request.model")).isEqualTo("vendorB-5.5");
            assertThat(attr(a, "http.response.status_code")).isEqualTo("500");
            assertThat(attr(a, "error.type")).isEqualTo("5xx");
            assertThat(a.getStatus().getCode()).isEqualTo(io.opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR);
        });
        assertThat(attr(first, "http.request.resend_count")).isEqualTo("0");
        assertThat(attr(retry, "http.request.resend_count")).isEqualTo("1");
        assertThat(attr(fallback, "gateway.fallback")).isEqualTo("1");
        assertThat(attr(fallback, "gen_ai.provider.name")).isEqualTo("anthropic");
        assertThat(attr(fallback, "gen_ai.request.model")).isEqualTo("vendorA-sonnet-4.5");
        assertThat(attr(fallback, "gen_ai.response.model")).isEqualTo("vendorA-sonnet-4.5");
        assertThat(attr(fallback, "http.response.status_code")).isEqualTo("200");
        assertThat(attr(fallback, "error.type")).isNull();
        assertThat(Long.parseLong(attr(fallback, "gen_ai.usage.output_tokens"))).isPositive();

        // each attempt carried its own span as the upstream traceparent
        List<ReceivedRequest> upstream = h.sim.received().stream().filter(q -> q.body().contains(mark)).toList();
        assertThat(upstream).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(upstream.get(i).headers().get("traceparent"))
                    // sampled (01), with the SDK's random-trace-id flag (02) of W3C Trace Context level 2
                    .matches("00-" + traceId + "-" + hex(attempts.get(i).getSpanId().toByteArray()) + "-0[13]");
        }
    }

    @Test
    void aCallersTraceparentIsContinued() {
        String callerTrace = UUID.randomUUID().toString().replace("-", "");
        String callerSpan = "00f067aa0ba902b7";
        String mark = unique();
        HttpResponse<String> r = h.postAuthed("/api/v1/messages", "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":50,"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"" + mark + " hi, my key is " + Canaries.ECHOED + "\"}]}",
                "traceparent", "00-" + callerTrace + "-" + callerSpan + "-01");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-Platform-Trace-Id")).hasValue(callerTrace);
        List<Span> spans = await(() -> collector.trace(callerTrace), 2);
        Span server = spans.stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER).findFirst().orElseThrow();
        assertThat(hex(server.getParentSpanId().toByteArray())).isEqualTo(callerSpan);
        assertThat(attr(server, "http.route")).isEqualTo("/api/v1/messages");
        // content capture (on here, off by default): the caller's messages, credentials redacted
        assertThat(attr(server, "gen_ai.input.messages")).contains(mark + " hi, my key is " + Redaction.MASK)
                .doesNotContain(Canaries.ECHOED);
        ReceivedRequest upstream = h.sim.received().stream().filter(q -> q.body().contains(mark)).findFirst().orElseThrow();
        assertThat(upstream.headers().get("traceparent")).startsWith("00-" + callerTrace + "-");
    }

    @Test
    void aCallerCannotSetTheAttributesTheGatewaySets() {
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\","
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "x-trace-attr-client.address", "6.6.6.6", "x-trace-attr-gateway.cost_usd", "0", "x-trace-attr-team", "blue");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Span server = server(r);
        assertThat(attr(server, "client.address")).isEqualTo("127.0.0.1");
        assertThat(Double.parseDouble(attr(server, "gateway.cost_usd"))).isPositive();
        assertThat(attr(server, "team")).isEqualTo("blue");

        // without a key the gateway sets no key id: nor may the caller
        HttpResponse<String> anonymous = h.post("/api/v1/chat/completions", "{}", "x-trace-attr-gateway.key_id", "key_of_someone_else");
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(attr(server(anonymous), "gateway.key_id")).isNull();
    }

    @Test
    void aCallersUnsampledTraceparentDoesNotKeepItsCallOutOfTheTraces() {
        String callerTrace = UUID.randomUUID().toString().replace("-", "");
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\","
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "traceparent", "00-" + callerTrace + "-00f067aa0ba902b7-00");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        // the operator's sampler (always on here) decides; the caller's trace is still the one continued
        List<Span> spans = await(() -> collector.trace(callerTrace), 2);
        assertThat(spans).hasSize(2);
        assertThat(spans).anySatisfy(s -> assertThat(hex(s.getParentSpanId().toByteArray())).isEqualTo("00f067aa0ba902b7"));
    }

    private static Span server(HttpResponse<String> r) {
        String traceId = r.headers().firstValue("X-Platform-Trace-Id").orElseThrow();
        return await(() -> collector.trace(traceId), 1).stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER)
                .findFirst().orElseThrow();
    }

    /**
     * The spans of a trace once at least {@code n} have arrived, its server span among them. The server span ends
     * last (once the response has ended and the call has its record), and the SDK exports spans in the order they
     * ended, batch after batch: no span of the trace can arrive after it, so the tests may assert the exact spans.
     */
    static List<Span> await(Supplier<List<Span>> spans, int n) {
        return Eventually.value(n + " spans, the server's among them", Duration.ofSeconds(30), spans, got -> got.size() >= n
                && got.stream().anyMatch(s -> s.getKind() == Span.SpanKind.SPAN_KIND_SERVER));
    }

}
