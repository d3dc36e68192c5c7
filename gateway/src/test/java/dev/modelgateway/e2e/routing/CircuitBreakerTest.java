package dev.modelgateway.e2e.routing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.TestClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The breaker of one vendor deployment: opens, fails fast to the fallback, probes, closes. Its clock is a
 * {@link TestClock}: a cooldown ends when the test advances it, to the millisecond.
 */
@E2e
class CircuitBreakerTest {
    static final TestClock clock = new TestClock();
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        h = GatewayHarness.builder().breaker(new CircuitBreaker.Thresholds(3, Duration.ofMillis(800))).clock(clock).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    static String chat(String text, String options) {
        return "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":" + options
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}";
    }

    long openAiRequests() {
        return h.sim.received().stream().filter(r -> "openai".equals(r.vendor())).count();
    }

    /** Whether a call with a fallback went to the fallback, sending vendor B nothing: the breaker is open. */
    boolean fallsBack(String text) {
        long before = openAiRequests();
        var r = h.postAuthed("/api/v1/chat/completions", chat(text, "{\"max_retries\":1,\"fallbacks\":[\"vendorA-sonnet-5\"]}"));
        assertThat(r.statusCode()).isEqualTo(200);
        return r.headers().firstValue("x-platform-model").orElse("").equals("vendorA-sonnet-5") && openAiRequests() == before;
    }

    @Test
    void opensAfterConsecutiveFailuresFailsFastToTheFallbackThenProbesAndCloses() throws Exception {
        h.sim.queueFault("openai", "status=500;times=3");
        var failing = h.postAuthed("/api/v1/chat/completions", chat("one", "{\"max_retries\":2}"));
        assertThat(failing.statusCode()).isEqualTo(502);

        h.sim.clearReceived();
        var open = h.postAuthed("/api/v1/chat/completions", chat("two", "{\"max_retries\":2,\"fallbacks\":[\"vendorA-sonnet-5\"]}"));
        assertThat(open.statusCode()).isEqualTo(200);
        assertThat(open.headers().firstValue("x-platform-model")).hasValue("vendorA-sonnet-5");
        assertThat(open.headers().firstValue("x-platform-attempts")).hasValue("2");
        assertThat(openAiRequests()).isZero();

        // nothing to fall back to and a deadline shorter than the cooldown: refused at once (a longer one would wait)
        var alone = h.postAuthed("/api/v1/chat/completions", chat("three", "{\"max_retries\":1,\"timeout\":0.3}"));
        assertThat(alone.statusCode()).isEqualTo(503);
        assertThat(alone.headers().firstValue("retry-after")).isPresent();
        JsonNode error = Json.parseOrNull(alone.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("circuit_open");
        assertThat(openAiRequests()).isZero();

        clock.advanceMillis(799);
        assertThat(fallsBack("three")).as("1 ms before the cooldown ends").isTrue();
        clock.advanceMillis(1);
        var probe = h.postAuthed("/api/v1/chat/completions", chat("four", "{\"max_retries\":1}"));
        assertThat(probe.statusCode()).isEqualTo(200);
        var closed = h.postAuthed("/api/v1/chat/completions", chat("five", "{\"max_retries\":1}"));
        assertThat(closed.statusCode()).isEqualTo(200);
        assertThat(openAiRequests()).isEqualTo(2);
    }

    @Test
    void aFailedProbeOpensItAgain() throws Exception {
        h.sim.queueFault("openai", "status=502;times=4");
        h.postAuthed("/api/v1/chat/completions", chat("a", "{\"max_retries\":2}"));
        clock.advanceMillis(800);
        h.sim.clearReceived();
        var probe = h.postAuthed("/api/v1/chat/completions", chat("b", "{\"max_retries\":1,\"timeout\":0.5}"));
        // the probe failed; its retry found the breaker open again, for longer than the deadline allows waiting
        assertThat(probe.statusCode()).isEqualTo(503);
        assertThat(Json.parseOrNull(probe.body()).at("/error/message").asText()).contains("→ 502").contains("→ 503");
        assertThat(openAiRequests()).isEqualTo(1);
        // opened again for twice as long: 1.6 s
        clock.advanceMillis(1_599);
        assertThat(fallsBack("b")).as("1 ms before the longer cooldown ends").isTrue();
        clock.advanceMillis(1);
        assertThat(h.postAuthed("/api/v1/chat/completions", chat("c", "{\"max_retries\":1}")).statusCode()).isEqualTo(200);
    }
}
