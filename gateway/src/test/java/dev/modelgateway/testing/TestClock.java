package dev.modelgateway.testing;

import dev.modelgateway.time.Ticker;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when a test advances it: both the wall clock ({@link InstantSource}) and the monotonic one
 * ({@link Ticker}), moved together, so that a test proves a timing by advancing time rather than by sleeping through it.
 * Safe to read from any thread (event loops included).
 */
public final class TestClock implements InstantSource, Ticker {
    /** Not 0, which some readers take for "not set", like {@link System#nanoTime()} is not. */
    private static final long START_NANOS = Duration.ofHours(1).toNanos();
    private final AtomicLong nanos = new AtomicLong(START_NANOS);
    private final Instant origin;

    /** Starting at an arbitrary fixed instant (2026-01-01T00:00:00Z). */
    public TestClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public TestClock(Instant start) {
        this.origin = start;
    }

    public TestClock advance(Duration d) {
        if (d.isNegative()) throw new IllegalArgumentException("time does not go back: " + d);
        nanos.addAndGet(d.toNanos());
        return this;
    }

    public TestClock advanceMillis(long ms) {
        return advance(Duration.ofMillis(ms));
    }

    @Override
    public long nanos() {
        return nanos.get();
    }

    @Override
    public Instant instant() {
        return origin.plusNanos(nanos.get() - START_NANOS);
    }
}
