package dev.modelgateway.observability;

import java.util.Locale;
import java.util.Map;

/**
 * The {@code observability:} settings (docs/configuration.md, docs/observability.md), read by {@code server/Gateway}
 * from the configuration's declared settings. The trace exporter itself is configured by the standard {@code OTEL_*} variables (or {@code otel.*} system properties), read by the OpenTelemetry
 * SDK; {@code otel} holds more of them, as the YAML's {@code observability.otel} map or a test's.
 *
 * @param metrics          serve {@code GET /metrics}
 * @param metricsPort      a separate port for {@code /metrics}, {@code /health} and {@code /ready}; 0: the main port
 * @param accessLogJson    the access log as JSON lines ({@code GATEWAY_ACCESS_LOG_FORMAT=json})
 * @param captureContent   put the caller's messages on the server span ({@code gen_ai.input.messages}), redacted
 * @param attributePrefix  request headers with this prefix become span attributes; null: none
 * @param followCallerSampling a caller's {@code traceparent} sampled flag decides whether its request is traced;
 *                         false: the operator's sampler decides for every request ({@link OperatorSampling})
 * @param otel             OpenTelemetry SDK properties ({@code otel.exporter.otlp.endpoint}…) over the environment's
 */
public record ObservabilityConfig(boolean metrics, int metricsPort, boolean accessLogJson, boolean captureContent,
                                  String attributePrefix, boolean followCallerSampling, Map<String, String> otel) {
    public static final ObservabilityConfig DEFAULT = new ObservabilityConfig(true, 0, false, false, null, false, Map.of());

    public ObservabilityConfig {
        otel = Map.copyOf(otel);
        if (metricsPort < 0 || metricsPort > 65535) {
            throw new IllegalArgumentException("observability.metrics_port must be a port number, not " + metricsPort);
        }
        if (attributePrefix != null && attributePrefix.isBlank()) attributePrefix = null;
        if (attributePrefix != null) attributePrefix = attributePrefix.toLowerCase(Locale.ROOT);
    }

    public ObservabilityConfig withOtel(Map<String, String> properties) {
        return new ObservabilityConfig(metrics, metricsPort, accessLogJson, captureContent, attributePrefix, followCallerSampling, properties);
    }

    public ObservabilityConfig withMetricsPort(int port) {
        return new ObservabilityConfig(metrics, port, accessLogJson, captureContent, attributePrefix, followCallerSampling, otel);
    }

    public ObservabilityConfig withAccessLogJson(boolean json) {
        return new ObservabilityConfig(metrics, metricsPort, json, captureContent, attributePrefix, followCallerSampling, otel);
    }

    public ObservabilityConfig withCaptureContent(boolean capture) {
        return new ObservabilityConfig(metrics, metricsPort, accessLogJson, capture, attributePrefix, followCallerSampling, otel);
    }

    public ObservabilityConfig withAttributePrefix(String prefix) {
        return new ObservabilityConfig(metrics, metricsPort, accessLogJson, captureContent, prefix, followCallerSampling, otel);
    }

    public ObservabilityConfig withFollowCallerSampling(boolean follow) {
        return new ObservabilityConfig(metrics, metricsPort, accessLogJson, captureContent, attributePrefix, follow, otel);
    }
}
