package dev.modelgateway.e2e.routing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.TestClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call whose every deployment is cooling for longer than {@code routing.max_cooldown_wait_seconds} (5 s by default)
 * is refused at once with a 503 and {@code retry-after}, instead of holding the caller for the cooldown; and each
 * breaker transition is logged once, naming the deployment. Isolated: it reads the breakers' Logback logger.
 */
@E2e
@Isolated
class CooldownWaitTest {
    static final TestClock clock = new TestClock();
    static final ListAppender<ILoggingEvent> log = new ListAppender<>();
    static final Logger breakerLog = (Logger) LoggerFactory.getLogger(CircuitBreaker.class);
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        log.start();
        breakerLog.addAppender(log);
        h = GatewayHarness.builder().breaker(new CircuitBreaker.Thresholds(1, Duration.ofSeconds(60))).clock(clock).start();
    }

    @AfterAll
    static void stop() {
        breakerLog.detachAppender(log);
        h.close();
    }

    static String chat(String options) {
        return "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":" + options
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    }

    List<ILoggingEvent> lines(String text) {
        return log.list.stream().filter(e -> e.getFormattedMessage().contains("deployment openai/")
                && e.getFormattedMessage().contains(text)).toList();
    }

    @Test
    void allCoolingAnswers503WithRetryAfterAtOnceAndEachTransitionIsLoggedOnce() {
        h.sim.queueFault("openai", "status=500;times=1");
        // the failure opens the breaker; the retry finds it open
        assertThat(h.postAuthed("/api/v1/chat/completions", chat("{\"max_retries\":1}")).statusCode()).isEqualTo(503);
        assertThat(lines("open after 1 failures in a row")).singleElement()
                .satisfies(e -> assertThat(e.getLevel()).isEqualTo(Level.WARN));

        // a 60 s cooldown, nothing to fall back to, a 300 s deadline: refused at once, not after a minute
        long begun = System.nanoTime();
        var refused = h.postAuthed("/api/v1/chat/completions", chat("{\"max_retries\":2}"));
        long tookMs = (System.nanoTime() - begun) / 1_000_000;
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(Json.parseOrNull(refused.body()).at("/error/code").asText()).isEqualTo("circuit_open");
        assertThat(refused.headers().firstValue("retry-after")).hasValue("60");
        assertThat(tookMs).as("answered without waiting for the cooldown").isLessThan(5_000);

        clock.advance(Duration.ofSeconds(60));
        assertThat(h.postAuthed("/api/v1/chat/completions", chat("{\"max_retries\":1}")).statusCode()).isEqualTo(200);
        assertThat(h.postAuthed("/api/v1/chat/completions", chat("{\"max_retries\":1}")).statusCode()).isEqualTo(200);
        assertThat(lines("half-open")).hasSize(1);
        assertThat(lines("closed")).singleElement().satisfies(e -> assertThat(e.getLevel()).isEqualTo(Level.INFO));
        assertThat(lines("open after")).hasSize(1);
    }
}
