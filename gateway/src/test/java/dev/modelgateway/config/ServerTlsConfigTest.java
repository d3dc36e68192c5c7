package dev.modelgateway.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerTlsConfigTest {
    @Test
    void cleartextByDefault() throws Exception {
        GatewayConfig config = new ConfigLoader(k -> null).load(null);
        assertThat(config.tls()).isNull();
        assertThat(config.scheme()).isEqualTo("http");
    }

    @Test
    void certificateAndKeyFromYamlOrEnvironment() throws Exception {
        Path cert = Files.createTempFile("cert", ".pem");
        Path key = Files.createTempFile("key", ".pem");
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, "server:\n  tls_cert_file: " + cert + "\n  tls_key_file: " + key + "\n");
        GatewayConfig fromYaml = new ConfigLoader(k -> null).load(file);
        assertThat(fromYaml.tls()).isEqualTo(new ServerTls(cert, key));
        assertThat(fromYaml.scheme()).isEqualTo("https");
        GatewayConfig fromEnv = new ConfigLoader(Map.of("GATEWAY_SERVER_TLS_CERT_FILE", cert.toString(),
                "GATEWAY_SERVER_TLS_KEY_FILE", key.toString())::get).load(null);
        assertThat(fromEnv.tls()).isEqualTo(new ServerTls(cert, key));
        Files.delete(file);
    }

    @Test
    void halfAConfigurationOrAMissingFileStopsStartUp() throws Exception {
        Path cert = Files.createTempFile("cert", ".pem");
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_SERVER_TLS_CERT_FILE", cert.toString())::get).load(null))
                .hasMessageContaining("server.tls_key_file (GATEWAY_SERVER_TLS_KEY_FILE)");
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_SERVER_TLS_KEY_FILE", cert.toString())::get).load(null))
                .hasMessageContaining("server.tls_cert_file (GATEWAY_SERVER_TLS_CERT_FILE)");
        assertThatThrownBy(() -> new ConfigLoader(Map.of("GATEWAY_SERVER_TLS_CERT_FILE", cert.toString(),
                "GATEWAY_SERVER_TLS_KEY_FILE", "/no/such/key.pem")::get).load(null))
                .hasMessageContaining("server.tls_key_file (GATEWAY_SERVER_TLS_KEY_FILE)").hasMessageContaining("/no/such/key.pem");
    }
}
