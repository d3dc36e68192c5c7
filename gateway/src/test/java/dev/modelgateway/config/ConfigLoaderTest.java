package dev.modelgateway.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    @Test
    void yamlWithEnvSubstitutionAndEnvOverrides() throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, """
                server:
                  port: 9000
                  master_key: ${MY_MASTER}
                vendors:
                  openai:
                    api_key: ${OPENAI_SECRET}
                    base_url: ${OPENAI_URL:-https://proxy.example/v1}
                  anthropic:
                    api_key: file-anthropic
                models:
                  platform/vendorA-sonnet-5:
                    upstream: claude-sonnet-5
                accounts:
                  database_url: jdbc:postgresql://db/gw
                """);
        Map<String, String> env = Map.of("MY_MASTER", "pk-master", "OPENAI_SECRET", "sk-1",
                "ANTHROPIC_API_KEY", "from-env", "GATEWAY_PORT", "9100");
        GatewayConfig c = new ConfigLoader(env::get).load(file);
        assertThat(c.port()).isEqualTo(9100);
        assertThat(c.masterKey()).isEqualTo("pk-master");
        assertThat(c.vendor(Vendor.OPENAI).apiKey()).isEqualTo("sk-1");
        assertThat(c.vendor(Vendor.OPENAI).baseUrl()).isEqualTo("https://proxy.example/v1");
        assertThat(c.vendor(Vendor.ANTHROPIC).apiKey()).isEqualTo("from-env");
        assertThat(c.vendor(Vendor.GEMINI).apiKey()).isNull();
        assertThat(c.vendor(Vendor.GEMINI).baseUrl()).isEqualTo("https://generativelanguage.googleapis.com");
        assertThat(c.upstreamOverrides()).containsEntry("platform/vendorA-sonnet-5", "claude-sonnet-5");
        assertThat(c.databaseUrl()).isEqualTo("jdbc:postgresql://db/gw");
    }

    @Test
    void vendorConnectionPoolsPerVendorWithDefaultsAndBounds() throws Exception {
        Path file = dir.resolve("pools.yaml");
        Files.writeString(file, """
                vendors:
                  openai: {max_connections: 2000, max_queued: 100}
                """);
        GatewayConfig c = new ConfigLoader(Map.<String, String>of()::get).load(file);
        assertThat(c.vendor(Vendor.OPENAI).pool()).isEqualTo(new VendorPool(2000, 100));
        assertThat(c.vendor(Vendor.ANTHROPIC).pool()).isEqualTo(VendorPool.DEFAULT);

        Files.writeString(file, "vendors:\n  gemini: {max_connections: 0}\n");
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("vendors.gemini.max_connections");
        Files.writeString(file, "vendors:\n  gemini: {http_version: \"3\"}\n");
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("vendors.gemini.http_version (GATEWAY_VENDORS_GEMINI_HTTP_VERSION) must be auto, 1.1 or 2");
        Files.writeString(file, "vendors:\n  gemini: {ca_file: /nonexistent/ca.pem}\n");
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("vendors.gemini.ca_file");
        Path ca = Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\n");
        Files.writeString(file, "vendors:\n  dashscope: {http_version: \"2\", ca_file: " + ca + "}\n");
        assertThat(new ConfigLoader(Map.<String, String>of()::get).load(file).vendor(Vendor.DASHSCOPE).pool())
                .isEqualTo(new VendorPool(VendorPool.DEFAULT.maxConnections(), VendorPool.DEFAULT.maxQueued(), VendorHttp.HTTP2, ca.toString()));
        Files.writeString(file, "vendors:\n  gemini: {max_queued: many}\n");
        assertThatThrownBy(() -> new ConfigLoader(Map.<String, String>of()::get).load(file))
                .hasMessageContaining("vendors.gemini.max_queued");
    }

    @Test
    void noFileMeansDefaultsAndEnvironment() throws Exception {
        GatewayConfig c = new ConfigLoader(Map.of("DASHSCOPE_BASE_URL", "http://x/compatible-mode/v1/")::get).load(null);
        assertThat(c.port()).isEqualTo(8080);
        assertThat(c.masterKey()).isNull();
        assertThat(c.vendor(Vendor.DASHSCOPE).baseUrl()).isEqualTo("http://x/compatible-mode/v1");
        assertThat(c.vendor(Vendor.ANTHROPIC).baseUrl()).isEqualTo("https://api.anthropic.com");
        assertThat(c.databaseUrl()).isEqualTo("jdbc:sqlite:./data/gateway.db");
    }

    @Test
    void badPortIsAClearStartupError() {
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_PORT", "http")::get).load(null))
                .hasMessageContaining("GATEWAY_PORT");
    }

    @Test
    void aBaseUrlThatIsNotAnHttpUrlIsAClearStartupError() {
        for (String bad : new String[] {"localhost:8080/v1", "api.openai.com/v1", "ftp://x/v1", "http://", "https://x/v1?a=b"}) {
            assertThatThrownBy(() -> new ConfigLoader(Map.of("OPENAI_BASE_URL", bad)::get).load(null))
                    .as(bad).hasMessageContaining("OPENAI_BASE_URL").hasMessageContaining(bad);
        }
    }
}
