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
        assertThat(media.maxItems()).isEqualTo(20);
        assertThat(media.maxTotalBytes()).isEqualTo(50L * 1024 * 1024);
        assertThat(media.maxConcurrent()).isEqualTo(4);
        assertThat(media.maxConcurrentAll()).isEqualTo(64);
    }

    @Test
    void requestLimitsFromYamlAndEnvironment() throws Exception {
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, """
                media:
                  max_items: 5
                  max_total_bytes: 9000
                  max_concurrent: 2
                  max_concurrent_process: 8
                """);
        MediaPolicy fromFile = new ConfigLoader(k -> null).load(file).media();
        assertThat(fromFile).isEqualTo(MediaPolicy.DEFAULT.withRequestLimits(5, 9000, 2, 8));
        Map<String, String> env = Map.of("GATEWAY_MEDIA_MAX_ITEMS", "3", "GATEWAY_MEDIA_MAX_TOTAL_BYTES", "7000",
                "GATEWAY_MEDIA_MAX_CONCURRENT", "1", "GATEWAY_MEDIA_MAX_CONCURRENT_PROCESS", "16");
        assertThat(new ConfigLoader(env::get).load(file).media()).isEqualTo(MediaPolicy.DEFAULT.withRequestLimits(3, 7000, 1, 16));
        Files.delete(file);
    }

    @Test
    void yamlSectionAndEnvironmentOverride() throws Exception {
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, """
                media:
                  allow_private: true
                  max_bytes: 1000
                  timeout_seconds: 2.5
                  max_redirects: 1
                """);
        assertThat(new ConfigLoader(k -> null).load(file).media()).isEqualTo(new MediaPolicy(true, 1000, 2500, 1));
        Map<String, String> env = Map.of("GATEWAY_MEDIA_ALLOW_PRIVATE", "false", "GATEWAY_MEDIA_MAX_BYTES", "5000");
        assertThat(new ConfigLoader(env::get).load(file).media()).isEqualTo(new MediaPolicy(false, 5000, 2500, 1));
        Files.delete(file);
    }
}
