package dev.modelgateway.routing;

import java.time.Duration;

/**
 * Stops calling one vendor deployment that fails every request (docs/platform-options.md, "Circuit
 * breaker"). Closed: calls go through; {@code consecutiveFailures} failures in a row open it. Open:
 * calls are refused at once for {@code openFor}. Then half-open: one probe call goes through while
 * others are refused; its success closes the breaker, its failure opens it again. Shared by all event
 * loops, hence synchronized; each method is a few field updates.
 */
public final class CircuitBreaker {
    /** @param consecutiveFailures failures in a row (5xx, connection failures) that open the breaker */
    public record Thresholds(int consecutiveFailures, Duration openFor) {
        public static final Thresholds DEFAULT = new Thresholds(10, Duration.ofSeconds(30));
    }

    /** What {@link #acquire()} granted. */
    public enum Permit { REFUSED, CALL, PROBE }

    /** How a granted call ended, as far as the deployment's health is concerned. */
    public enum Outcome {
        HEALTHY,
        FAILED,
        /** Says nothing about the deployment: the caller left, a timeout of the caller's choosing, a 429. */
        UNKNOWN
    }

    private enum State { CLOSED, OPEN, HALF_OPEN }

    private final Thresholds thresholds;
    private State state = State.CLOSED;
    private int failures;
    private long openUntilNanos;
    private boolean probing;

    public CircuitBreaker(Thresholds thresholds) {
        this.thresholds = thresholds;
    }

    public synchronized Permit acquire() {
        switch (state) {
            case CLOSED -> {
                return Permit.CALL;
            }
            case OPEN -> {
                if (System.nanoTime() - openUntilNanos < 0) return Permit.REFUSED;
                state = State.HALF_OPEN;
                probing = true;
                return Permit.PROBE;
            }
            default -> {
                if (probing) return Permit.REFUSED;
                probing = true;
                return Permit.PROBE;
            }
        }
    }

    public synchronized void record(Permit permit, Outcome outcome) {
        if (permit == Permit.REFUSED) return;
        if (permit == Permit.PROBE) probing = false;
        switch (outcome) {
            case HEALTHY -> {
                failures = 0;
                state = State.CLOSED;
            }
            case FAILED -> {
                if (permit == Permit.PROBE || (state == State.CLOSED && ++failures >= thresholds.consecutiveFailures())) open();
            }
            case UNKNOWN -> { } // a probe without verdict just lets the next call probe
        }
    }

    /** Milliseconds until the breaker lets a probe through; 0 when it is not open. */
    /** 0 closed, 1 half-open (probing), 2 open: the breaker-state metric's value. */
    public synchronized int stateCode() {
        return switch (state) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        };
    }

    public synchronized long retryAfterMs() {
        return state == State.CLOSED ? 0 : Math.max(0, (openUntilNanos - System.nanoTime()) / 1_000_000);
    }

    private void open() {
        state = State.OPEN;
        failures = 0;
        openUntilNanos = System.nanoTime() + thresholds.openFor().toNanos();
    }
}
