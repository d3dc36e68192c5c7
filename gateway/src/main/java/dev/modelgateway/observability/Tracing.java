package dev.modelgateway.observability;

import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The OpenTelemetry SDK, when an exporter is configured: built by the SDK's autoconfiguration from the standard
 * {@code OTEL_*} variables and {@code otel.*} system properties ({@code OTEL_EXPORTER_OTLP_ENDPOINT},
 * {@code OTEL_EXPORTER_OTLP_PROTOCOL} {@code http/protobuf} or {@code grpc}, headers, timeout, sampler, resource…),
 * with {@link ObservabilityConfig#otel()} on top. Without an endpoint nothing of the SDK is built or loaded, and a
 * request costs no span object ({@link RequestTrace}).
 */
public final class Tracing implements AutoCloseable {
    static final String SCOPE = "dev.modelgateway";
    /** Only traces: the gateway's metrics are scraped by Prometheus, its logs go to the console. */
    private static final Map<String, String> DEFAULTS = Map.of(
            "otel.service.name", "model-gateway",
            "otel.metrics.exporter", "none",
            "otel.logs.exporter", "none");

    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;
    private final TextMapPropagator propagator = W3CTraceContextPropagator.getInstance();

    private Tracing(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
        this.tracer = sdk.getTracer(SCOPE);
    }

    /** The SDK when an OTLP endpoint or a trace exporter is set, else null (tracing off). */
    static Tracing configure(ObservabilityConfig config, UnaryOperator<String> env) {
        if (!enabled(config.otel(), env)) return null;
        Map<String, String> overrides = new HashMap<>(config.otel());
        AutoConfiguredOpenTelemetrySdk auto = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> DEFAULTS)
                .addPropertiesCustomizer(properties -> overrides)
                .addSamplerCustomizer((sampler, properties) -> config.followCallerSampling() ? sampler : new OperatorSampling(sampler))
                .disableShutdownHook()
                .build();
        return new Tracing(auto.getOpenTelemetrySdk());
    }

    /**
     * Whether tracing is on: an exporter endpoint or an explicit traces exporter, in the configuration, the system
     * properties or the environment (the SDK's own order), and the SDK not disabled.
     */
    static boolean enabled(Map<String, String> otel, UnaryOperator<String> env) {
        if ("true".equalsIgnoreCase(setting("otel.sdk.disabled", otel, env))) return false;
        String exporter = setting("otel.traces.exporter", otel, env);
        if (exporter != null) return !exporter.trim().equalsIgnoreCase("none");
        return setting("otel.exporter.otlp.endpoint", otel, env) != null
                || setting("otel.exporter.otlp.traces.endpoint", otel, env) != null;
    }

    private static String setting(String property, Map<String, String> otel, UnaryOperator<String> env) {
        String v = otel.get(property);
        if (v == null) v = System.getProperty(property);
        if (v == null) v = env.apply(property.toUpperCase(Locale.ROOT).replace('.', '_'));
        return v == null || v.isBlank() ? null : v;
    }

    Tracer tracer() {
        return tracer;
    }

    TextMapPropagator propagator() {
        return propagator;
    }

    /** Exports what is still buffered (bounded), then stops the SDK. */
    @Override
    public void close() {
        sdk.getSdkTracerProvider().forceFlush().join(5, TimeUnit.SECONDS);
        sdk.shutdown().join(5, TimeUnit.SECONDS);
    }
}
