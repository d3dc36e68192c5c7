package dev.modelgateway.observability;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP server's series carry the exact status code beside its class (docs/observability.md, "Metrics"), from a
 * bounded set: a code outside 100–599 is {@code _OTHER}.
 */
class GatewayMetricsTest {

    @Test
    void httpRequestsAreLabelledWithTheirExactStatusCode() {
        try (GatewayMetrics metrics = new GatewayMetrics()) {
            for (int status : new int[]{200, 404, 429, 429, 503, 99, 600, 1000}) {
                metrics.request("POST", "/api/v1/chat/completions", status, 1_000_000);
            }
            String scrape = metrics.scrape();
            assertThat(count(scrape, "200")).isEqualTo("1");
            assertThat(count(scrape, "404")).isEqualTo("1");
            assertThat(count(scrape, "429")).isEqualTo("2");
            assertThat(count(scrape, "503")).isEqualTo("1");
            assertThat(count(scrape, "_OTHER")).as("99, 600 and 1000 together").isEqualTo("3");
            assertThat(scrape).doesNotContain("http_response_status_code=\"1000\"").doesNotContain("http_response_status_code=\"99\"");
        }
    }

    private static String count(String scrape, String code) {
        return scrape.lines().filter(l -> l.startsWith("http_server_request_duration_seconds_count{")
                        && l.contains("http_response_status_code=\"" + code + "\""))
                .map(l -> l.substring(l.lastIndexOf(' ') + 1)).findFirst().orElse("none");
    }
}
