package dev.modelgateway.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MediaConfigTest {
    @Test
    void defaultsRefusePrivateAddresses() throws Exception {
        MediaPolicy media = new ConfigLoader(k -> null).load(null).media();
        assertThat(media).isEqualTo(MediaPolicy.DEFAULT);
        assertThat(media.allowPrivate()).isFalse();
        assertThat(media.maxBytes()).isEqualTo(20L * 1024 * 1024);
        assertThat(media.timeoutMs()).isEqualTo(10_000);
        assertThat(media.maxRedirects()).isEqualTo(3);
    }

    @Test
    void yamlSectionAndEnvironmentOverride() throws Exception {
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, """
                media:
                  allow_private: true
                  max_bytes: 1000
                  timeout_ms: 2500
                  max_redirects: 1
                """);
        assertThat(new ConfigLoader(k -> null).load(file).media()).isEqualTo(new MediaPolicy(true, 1000, 2500, 1));
        Map<String, String> env = Map.of("GATEWAY_MEDIA_ALLOW_PRIVATE", "false", "GATEWAY_MEDIA_MAX_BYTES", "5000");
        assertThat(new ConfigLoader(env::get).load(file).media()).isEqualTo(new MediaPolicy(false, 5000, 2500, 1));
        Files.delete(file);
    }
}
