package dev.modelgateway.observability;

import dev.modelgateway.testing.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** One warning per interval, and the next one counts the occurrences held back in between. */
class LogThrottleTest {
    private final TestClock clock = new TestClock(Instant.parse("2026-12-07T00:00:00Z"));
    private final LogThrottle throttle = new LogThrottle(Duration.ofSeconds(10), clock);

    @Test
    void theFirstOccurrenceIsDueThenNoneUntilTheIntervalHasPassed() {
        assertThat(throttle.occurred()).isEqualTo(1);
        assertThat(throttle.occurred()).isZero();
        clock.advance(Duration.ofMillis(9_999));
        assertThat(throttle.occurred()).as("1 ms before the interval ends").isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(throttle.occurred()).as("this one and the two held back").isEqualTo(3);
        assertThat(throttle.occurred()).isZero();
    }
}
