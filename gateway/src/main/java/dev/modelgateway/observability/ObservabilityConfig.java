package dev.modelgateway.observability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The {@code observability:} settings (docs/configuration.md, docs/observability.md). The trace exporter itself is
 * configured by the standard {@code OTEL_*} variables (or {@code otel.*} system properties), read by the OpenTelemetry
 * SDK; {@code otel} holds more of them, as the YAML's {@code observability.otel} map or a test's.
 *
 * @param metrics          serve {@code GET /metrics}
 * @param metricsPort      a separate port for {@code /metrics}, {@code /health} and {@code /ready}; 0: the main port
 * @param accessLogJson    the access log as JSON lines ({@code GATEWAY_ACCESS_LOG_FORMAT=json})
 * @param captureContent   put the caller's messages on the server span ({@code gen_ai.input.messages}), redacted
 * @param attributePrefix  request headers with this prefix become span attributes; null: none
 * @param otel             OpenTelemetry SDK properties ({@code otel.exporter.otlp.endpoint}…) over the environment's
 */
public record ObservabilityConfig(boolean metrics, int metricsPort, boolean accessLogJson, boolean captureContent,
                                  String attributePrefix, Map<String, String> otel) {
    public static final ObservabilityConfig DEFAULT = new ObservabilityConfig(true, 0, false, false, null, Map.of());

    public ObservabilityConfig {
        otel = Map.copyOf(otel);
        if (metricsPort < 0 || metricsPort > 65535) {
            throw new IllegalArgumentException("observability.metrics_port must be a port number, not " + metricsPort);
        }
        if (attributePrefix != null && attributePrefix.isBlank()) attributePrefix = null;
        if (attributePrefix != null) attributePrefix = attributePrefix.toLowerCase(java.util.Locale.ROOT);
    }

    public ObservabilityConfig withOtel(Map<String, String> properties) {
        return new ObservabilityConfig(metrics, metricsPort, accessLogJson, captureContent, attributePrefix, properties);
    }

    public ObservabilityConfig withMetricsPort(int port) {
        return new ObservabilityConfig(metrics, port, accessLogJson, captureContent, attributePrefix, otel);
    }

    public ObservabilityConfig withAccessLogJson(boolean json) {
        return new ObservabilityConfig(metrics, metricsPort, json, captureContent, attributePrefix, otel);
    }

    public ObservabilityConfig withCaptureContent(boolean capture) {
        return new ObservabilityConfig(metrics, metricsPort, accessLogJson, capture, attributePrefix, otel);
    }

    public ObservabilityConfig withAttributePrefix(String prefix) {
        return new ObservabilityConfig(metrics, metricsPort, accessLogJson, captureContent, prefix, otel);
    }

    /** The settings from the YAML file (may be null) and the environment, the environment winning. */
    public static ObservabilityConfig load(Path file, UnaryOperator<String> env) {
        JsonNode node = read(file).path("observability");
        boolean metrics = flag(env.apply("GATEWAY_METRICS"), node.path("metrics").asText("true"));
        int port = parseInt("observability.metrics_port / GATEWAY_METRICS_PORT",
                or(env.apply("GATEWAY_METRICS_PORT"), node.path("metrics_port").asText("0")));
        // the environment only: the log's layout is set up before any configuration file is read (LogConfigurator)
        String format = env.apply("GATEWAY_ACCESS_LOG_FORMAT");
        boolean json = format != null && format.trim().equalsIgnoreCase("json");
        boolean capture = flag(env.apply("GATEWAY_TRACE_CAPTURE_CONTENT"), node.path("capture_content").asText("false"));
        String prefix = or(env.apply("GATEWAY_TRACE_ATTRIBUTE_PREFIX"), node.path("attribute_header_prefix").asText(null));
        Map<String, String> otel = new HashMap<>();
        node.path("otel").properties().forEach(e -> otel.put(e.getKey(), e.getValue().asText()));
        return new ObservabilityConfig(metrics, port, json, capture, prefix, otel);
    }

    private static JsonNode read(Path file) {
        if (file == null || !Files.exists(file)) return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        try {
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
            return root == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String or(String env, String yaml) {
        return env != null && !env.isBlank() ? env : yaml;
    }

    private static boolean flag(String env, String yaml) {
        String v = or(env, yaml);
        return v != null && (v.trim().equalsIgnoreCase("true") || v.trim().equalsIgnoreCase("on"));
    }

    private static int parseInt(String setting, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(setting + " must be a port number, not '" + value + "'");
        }
    }
}
