package dev.modelgateway.canary;

import dev.modelgateway.observability.Redaction;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The check itself finds what it looks for, and the redaction layer hides it. */
class CanaryLogCheckTest {
    @Test
    void rawCanariesAndPlatformKeysAreFound() {
        String realKey = "pk-" + "A".repeat(40);
        assertThat(CanaryLogCheck.leaks("auth with sim-openai-key and " + Canaries.PLATFORM_KEY + " then " + realKey))
                .contains("sim-openai-key", Canaries.PLATFORM_KEY, realKey);
        assertThat(CanaryLogCheck.leaks("nothing secret here: pk-short")).isEmpty();
    }

    @Test
    void theRedactionLayerHidesEveryCanary() {
        Redaction.register("sim-openai-key");
        String line = "vendor said: Incorrect API key sim-openai-key; caller sent Bearer " + Canaries.PLATFORM_KEY
                + " and GET /v1beta/models?alt=sse&key=" + Canaries.QUERY_KEY + " x-api-key: " + Canaries.ECHOED;
        String clean = Redaction.scrub(line);
        assertThat(CanaryLogCheck.leaks(clean)).isEmpty();
        assertThat(clean).contains("vendor said: Incorrect API key " + Redaction.MASK, "?alt=sse&key=" + Redaction.MASK);
    }
}
