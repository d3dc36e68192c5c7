package dev.modelgateway.time;

/**
 * A monotonic nanosecond clock, for durations (cooldowns, windows): {@link #SYSTEM} in production, a settable clock in
 * tests, which advance it instead of sleeping. {@link java.time.InstantSource} is its wall-clock counterpart, for times
 * stored or shared with other instances.
 */
@FunctionalInterface
public interface Ticker {
    Ticker SYSTEM = System::nanoTime;

    /** Nanoseconds from an arbitrary origin, as {@link System#nanoTime()}: only differences mean something. */
    long nanos();
}
