package dev.modelgateway.server;

import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.observability.ObservabilityConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code observability} section is read with the rest of the file: its variables, its typos refused. */
class ObservabilitySettingsTest {
    @TempDir
    Path dir;

    @Test
    void theSectionAndTheEnvironmentMakeTheObservabilityConfig() throws Exception {
        Path file = Files.writeString(dir.resolve("gateway.yaml"), """
                observability:
                  metrics: false
                  metrics_port: 9464
                  attribute_header_prefix: X-Trace-Attr-
                  follow_caller_sampling: true
                  otel: {otel.exporter.otlp.endpoint: "${COLLECTOR}"}
                """);
        Map<String, String> env = Map.of("COLLECTOR", "http://collector:4318", "GATEWAY_ACCESS_LOG_FORMAT", "json",
                "GATEWAY_OBSERVABILITY_CAPTURE_CONTENT", "true");
        ObservabilityConfig o = Gateway.observability(new ConfigLoader(env::get).load(file).settings());
        assertThat(o).isEqualTo(new ObservabilityConfig(false, 9464, true, true, "x-trace-attr-", true,
                Map.of("otel.exporter.otlp.endpoint", "http://collector:4318")));
        assertThat(Gateway.observability(new ConfigLoader(k -> null).load(null).settings())).isEqualTo(ObservabilityConfig.DEFAULT);

        Files.writeString(file, "observability:\n  metrics_prot: 9464\n");
        assertThatThrownBy(() -> new ConfigLoader(k -> null).load(file))
                .hasMessage("observability.metrics_prot: unknown setting; did you mean `metrics_port`?");
    }
}
