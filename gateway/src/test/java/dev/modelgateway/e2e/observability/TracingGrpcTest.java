package dev.modelgateway.e2e.observability;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.observability.ObservabilityConfig;
import dev.modelgateway.testing.E2e;
import io.opentelemetry.proto.trace.v1.Span;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static dev.modelgateway.e2e.observability.OtlpReceiver.attr;
import static org.assertj.core.api.Assertions.assertThat;

/** The same traces over OTLP/gRPC ({@code otel.exporter.otlp.protocol=grpc}), to a collector speaking HTTP/2 in cleartext. */
@E2e
class TracingGrpcTest {
    static Vertx vertx;
    static OtlpReceiver collector;
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        collector = OtlpReceiver.start(vertx);
        h = GatewayHarness.builder().observability(ObservabilityConfig.DEFAULT.withOtel(Map.of(
                "otel.exporter.otlp.endpoint", collector.endpoint(),
                "otel.exporter.otlp.protocol", "grpc",
                "otel.exporter.otlp.compression", "gzip",
                "otel.bsp.schedule.delay", "50"))).start();
    }

    @AfterAll
    static void stop() {
        if (h != null) h.close();
        if (collector != null) collector.close();
        if (vertx != null) vertx.close().await();
    }

    @Test
    void spansArriveOverGrpc() {
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions",
                "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        String traceId = r.headers().firstValue("X-Platform-Trace-Id").orElseThrow();
        List<Span> spans = TracingTest.await(() -> collector.trace(traceId), 2);
        assertThat(spans).hasSize(2);
        assertThat(collector.contentTypes).contains("application/grpc");
        Span attempt = spans.stream().filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT).findFirst().orElseThrow();
        assertThat(attr(attempt, "gen_ai.provider.name")).isEqualTo("openai");
        assertThat(attr(attempt, "gen_ai.request.model")).isEqualTo("vendorB-5.5");
        // no content unless the operator opts in
        assertThat(spans).allSatisfy(s -> assertThat(attr(s, "gen_ai.input.messages")).isNull());
    }
}
