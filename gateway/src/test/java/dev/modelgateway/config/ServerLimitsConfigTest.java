package dev.modelgateway.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerLimitsConfigTest {
    @Test
    void defaults() throws Exception {
        ServerLimits limits = new ConfigLoader(k -> null).load(null).limits();
        assertThat(limits).isEqualTo(new ServerLimits(360, 30, 120, 256,
                ServerLimits.defaultMaxConnections(Runtime.getRuntime().maxMemory()), 0));
        assertThat(limits.bufferedBodyBudget()).isEqualTo(Runtime.getRuntime().maxMemory() / 4);
        assertThat(limits.vendorAnswers()).isEqualTo(new VendorAnswerLimits(64L * 1024 * 1024, 1800, 16L * 1024 * 1024));
    }

    @Test
    void defaultConnectionCapFollowsTheHeap() {
        long mib = 1024 * 1024;
        // the launcher's -Xmx512m, as Runtime.maxMemory() reports it under the serial collector
        assertThat(ServerLimits.defaultMaxConnections(507 * mib)).isEqualTo(16_384);
        assertThat(ServerLimits.defaultMaxConnections(256 * mib)).isEqualTo(8_738);
        assertThat(ServerLimits.defaultMaxConnections(6144 * mib)).isEqualTo(16_384);
        assertThat(ServerLimits.defaultMaxConnections(16 * mib)).isEqualTo(1_024);
    }

    @Test
    void vendorAnswerCapsAreSettings() throws Exception {
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, """
                server:
                  max_vendor_answer_bytes: 1000000
                  max_vendor_stream_seconds: 600
                  max_vendor_event_bytes: 65536
                """);
        assertThat(new ConfigLoader(k -> null).load(file).limits().vendorAnswers())
                .isEqualTo(new VendorAnswerLimits(1_000_000, 600, 65_536));
        Map<String, String> env = Map.of("GATEWAY_SERVER_MAX_VENDOR_STREAM_SECONDS", "5", "GATEWAY_SERVER_MAX_VENDOR_ANSWER_BYTES", "2048",
                "GATEWAY_SERVER_MAX_VENDOR_EVENT_BYTES", "1024");
        assertThat(new ConfigLoader(env::get).load(file).limits().vendorAnswers()).isEqualTo(new VendorAnswerLimits(2048, 5, 1024));
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_SERVER_MAX_VENDOR_STREAM_SECONDS", "0")::get).load(file))
                .hasMessageContaining("server.max_vendor_stream_seconds");
        Files.delete(file);
    }

    @Test
    void yamlAndEnvironmentOverride() throws Exception {
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, """
                server:
                  idle_timeout_seconds: 600
                  request_head_timeout_seconds: 10
                  body_read_timeout_seconds: 60
                  max_connections_per_client: 0
                  max_connections: 100
                  max_buffered_body_bytes: 1048576
                """);
        assertThat(new ConfigLoader(k -> null).load(file).limits()).isEqualTo(new ServerLimits(600, 10, 60, 0, 100, 1048576));
        Map<String, String> env = Map.of("GATEWAY_SERVER_MAX_CONNECTIONS", "50", "GATEWAY_SERVER_REQUEST_HEAD_TIMEOUT_SECONDS", "5");
        assertThat(new ConfigLoader(env::get).load(file).limits()).isEqualTo(new ServerLimits(600, 5, 60, 0, 50, 1048576));
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_SERVER_MAX_CONNECTIONS", "-1")::get).load(file))
                .hasMessageContaining("server.max_connections (GATEWAY_SERVER_MAX_CONNECTIONS)").hasMessageContaining("from GATEWAY_SERVER_MAX_CONNECTIONS");
        Files.delete(file);
    }

    @Test
    void defaultMaxConcurrentPerKey() throws Exception {
        assertThat(new ConfigLoader(k -> null).load(null).defaultMaxConcurrent()).isEqualTo(64);
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, """
                accounts:
                  default_max_concurrent: 16
                """);
        assertThat(new ConfigLoader(k -> null).load(file).defaultMaxConcurrent()).isEqualTo(16);
        assertThat(new ConfigLoader(Map.of("GATEWAY_ACCOUNTS_DEFAULT_MAX_CONCURRENT", "0")::get).load(file).defaultMaxConcurrent()).isZero();
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_ACCOUNTS_DEFAULT_MAX_CONCURRENT", "-1")::get).load(file))
                .hasMessageContaining("accounts.default_max_concurrent (GATEWAY_ACCOUNTS_DEFAULT_MAX_CONCURRENT) must be a whole number from 0 to 1000000,"
                        + " got '-1' from GATEWAY_ACCOUNTS_DEFAULT_MAX_CONCURRENT");
        Files.delete(file);
    }
}
