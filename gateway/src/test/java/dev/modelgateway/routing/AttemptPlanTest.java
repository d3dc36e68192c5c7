package dev.modelgateway.routing;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.testing.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.modelgateway.routing.AttemptPlan.Verdict.NEXT_MODEL;
import static dev.modelgateway.routing.AttemptPlan.Verdict.RETRY;
import static dev.modelgateway.routing.AttemptPlan.Verdict.STOP;
import static org.assertj.core.api.Assertions.assertThat;

class AttemptPlanTest {
    static final Catalogue CATALOGUE = Catalogue.loadDefault(Map.of());
    static final ModelEntry PRIMARY = CATALOGUE.requireKnown("platform/vendorB-5.5", "model");
    static final ModelEntry FALLBACK = CATALOGUE.requireKnown("vendorA-sonnet-5", "fallbacks[0]");

    static AttemptPlan plan(int retries, ModelEntry... fallbacks) {
        return new AttemptPlan(PRIMARY, new PlatformOptions(null, retries, List.of(fallbacks)));
    }

    @Test
    void retriesThePrimaryThenEachFallbackWithTheSameRule() {
        AttemptPlan p = plan(2, FALLBACK);
        assertThat(p.afterFailure(RETRY, -1, 60_000)).isBetween(100L, 200L);
        assertThat(p.afterFailure(RETRY, -1, 60_000)).isBetween(200L, 400L);
        assertThat(p.model()).isEqualTo(PRIMARY);
        assertThat(p.afterFailure(RETRY, -1, 60_000)).isZero();
        assertThat(p.model()).isEqualTo(FALLBACK);
        assertThat(p.fallback()).isEqualTo(1);
        p.afterFailure(RETRY, -1, 60_000);
        p.afterFailure(RETRY, -1, 60_000);
        assertThat(p.attempts()).isEqualTo(6);
        assertThat(p.afterFailure(RETRY, -1, 60_000)).isEqualTo(-1);
    }

    @Test
    void theCallersFaultEndsThePlanAndAnUnusableDeploymentSkipsItsRetries() {
        assertThat(plan(3, FALLBACK).afterFailure(STOP, -1, 60_000)).isEqualTo(-1);
        AttemptPlan p = plan(3, FALLBACK);
        assertThat(p.afterFailure(NEXT_MODEL, -1, 60_000)).isZero();
        assertThat(p.model()).isEqualTo(FALLBACK);
        assertThat(p.attempts()).isEqualTo(2);
    }

    @Test
    void aRetryHintIsHonouredWhenItFitsTheDeadlineOtherwiseTheNextModelIsTriedAtOnce() {
        assertThat(plan(1, FALLBACK).afterFailure(RETRY, 300, 60_000)).isEqualTo(300);
        AttemptPlan p = plan(1, FALLBACK);
        assertThat(p.afterFailure(RETRY, 30_000, 5_000)).isZero();
        assertThat(p.model()).isEqualTo(FALLBACK);
        assertThat(plan(1).afterFailure(RETRY, 30_000, 5_000)).isEqualTo(-1);
        assertThat(plan(1, FALLBACK).afterFailure(RETRY, -1, 0)).isEqualTo(-1);
    }

    @Test
    void backoffGrowsWithJitterUpToItsCap() {
        for (int i = 0; i < 50; i++) {
            assertThat(Backoff.delayMs(1, -1)).isBetween(100L, 200L);
            assertThat(Backoff.delayMs(3, -1)).isBetween(400L, 800L);
            assertThat(Backoff.delayMs(9, -1)).isBetween(1_500L, 3_000L);
        }
    }

    @Test
    void retryAfterHeadersAreRead() {
        assertThat(RetryAfter.millis(Map.of("retry-after-ms", "250", "retry-after", "9")::get)).isEqualTo(250);
        assertThat(RetryAfter.millis(Map.of("retry-after", "2")::get)).isEqualTo(2_000);
        assertThat(RetryAfter.millis(Map.of("retry-after", "soon")::get)).isEqualTo(-1);
        assertThat(RetryAfter.millis(Map.<String, String>of()::get)).isEqualTo(-1);
    }

    @Test
    void breakerOpensOnConsecutiveFailuresLetsOneProbeThroughAndClosesOnItsSuccess() {
        TestClock clock = new TestClock();
        CircuitBreaker b = new CircuitBreaker(new CircuitBreaker.Thresholds(2, Duration.ofMillis(50)), clock);
        b.record(b.acquire(), CircuitBreaker.Outcome.FAILED);
        b.record(b.acquire(), CircuitBreaker.Outcome.HEALTHY); // a success in between resets the count
        b.record(b.acquire(), CircuitBreaker.Outcome.FAILED);
        b.record(b.acquire(), CircuitBreaker.Outcome.UNKNOWN); // a 429 or the caller's timeout counts for nothing
        assertThat(b.acquire()).isEqualTo(CircuitBreaker.Permit.CALL);
        b.record(CircuitBreaker.Permit.CALL, CircuitBreaker.Outcome.FAILED);
        assertThat(b.acquire()).isEqualTo(CircuitBreaker.Permit.REFUSED);
        assertThat(b.retryAfterMs()).isEqualTo(50);
        clock.advanceMillis(49);
        assertThat(b.acquire()).as("still cooling 1 ms before the end").isEqualTo(CircuitBreaker.Permit.REFUSED);
        clock.advanceMillis(1);
        CircuitBreaker.Permit probe = b.acquire();
        assertThat(probe).isEqualTo(CircuitBreaker.Permit.PROBE);
        assertThat(b.acquire()).isEqualTo(CircuitBreaker.Permit.REFUSED);
        b.record(probe, CircuitBreaker.Outcome.HEALTHY);
        assertThat(b.acquire()).isEqualTo(CircuitBreaker.Permit.CALL);
    }
}
