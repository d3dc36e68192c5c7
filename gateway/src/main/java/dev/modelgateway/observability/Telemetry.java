package dev.modelgateway.observability;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.function.UnaryOperator;

/**
 * One gateway's observability: its metrics registry, its tracer (null when tracing is off) and its settings. The
 * router opens a {@link RequestTrace} per request; the call runner, the metering and the relay report to it.
 */
public final class Telemetry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Telemetry.class);
    /** For tests and internal exchanges: metrics recorded nowhere anyone reads, no tracing. */
    public static final Telemetry OFF = new Telemetry(ObservabilityConfig.DEFAULT, new GatewayMetrics(), null);

    private final ObservabilityConfig config;
    private final GatewayMetrics metrics;
    private final Tracing tracing;

    private Telemetry(ObservabilityConfig config, GatewayMetrics metrics, Tracing tracing) {
        this.config = config;
        this.metrics = metrics;
        this.tracing = tracing;
    }

    /** Metrics (the JVM's are added by the first scrape), and the OpenTelemetry SDK when an exporter is configured. */
    public static Telemetry start(ObservabilityConfig config, UnaryOperator<String> env) {
        GatewayMetrics metrics = new GatewayMetrics();
        Tracing tracing = Tracing.configure(config, env);
        if (tracing != null) LOG.info("tracing on: spans exported over OTLP (OTEL_EXPORTER_OTLP_* settings)");
        return new Telemetry(config, metrics, tracing);
    }

    /** The request's trace, opened before anything else handles it. */
    public RequestTrace begin(HttpServerRequest req, String protocol) {
        return RequestTrace.begin(this, req, protocol);
    }

    /** Measures how late each event loop runs a 1-second timer, from the loop of {@code vertx}'s current context. */
    public long watchEventLoop(Vertx vertx, String loop) {
        return EventLoopLag.watch(vertx, metrics, loop);
    }

    public ObservabilityConfig config() {
        return config;
    }

    public GatewayMetrics metrics() {
        return metrics;
    }

    Tracing tracing() {
        return tracing;
    }

    /** A gauge over a live object (circuit breakers, pools, the ledger queue), read at each scrape. */
    public <T> void gauge(String name, String description, Map<String, String> labels, T source,
                          ToDoubleFunction<T> value) {
        metrics.gauge(name, description, labels, source, value);
    }

    @Override
    public void close() {
        if (this == OFF) return;
        if (tracing != null) tracing.close();
        metrics.close();
    }
}
