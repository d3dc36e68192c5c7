package dev.modelgateway.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for an asynchronous effect by looking at it until it shows, within a bound: a test never sleeps a fixed time
 * hoping the effect has happened by then. The bound is how long a loaded machine may take, not a timing under test
 * (a timing is proved by advancing a {@link TestClock}).
 */
public final class Eventually {
    /** Long enough for a machine running other builds; a passing test waits only as long as the effect takes. */
    public static final Duration WITHIN = Duration.ofSeconds(10);
    private static final long LOOK_EVERY_NANOS = Duration.ofMillis(5).toNanos();

    private Eventually() {
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, WITHIN, condition);
    }

    public static void until(String what, Duration within, BooleanSupplier condition) {
        value(what, within, condition::getAsBoolean, done -> done);
    }

    /** The first value of {@code probe} that is {@code done}; an {@link AssertionError} naming {@code what} after {@code within}. */
    public static <T> T value(String what, Duration within, Supplier<T> probe, Predicate<? super T> done) {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            T value = probe.get();
            if (done.test(value)) return value;
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + within.toMillis() + " ms for " + what + "; last seen: " + value);
            }
            LockSupport.parkNanos(LOOK_EVERY_NANOS);
            if (Thread.interrupted()) throw new AssertionError("interrupted while waiting for " + what);
        }
    }

    public static <T> T value(String what, Supplier<T> probe, Predicate<? super T> done) {
        return value(what, WITHIN, probe, done);
    }
}
