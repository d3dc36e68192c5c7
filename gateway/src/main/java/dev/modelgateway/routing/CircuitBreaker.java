package dev.modelgateway.routing;

import dev.modelgateway.time.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * The health of one deployment (docs/platform-options.md, "Circuit breaker"; docs/configuration.md, "Cooldowns").
 * Closed: calls go through; {@code consecutiveFailures} failures in a row open it. Open (cooling down): calls are
 * refused at once, for {@code openFor} the first time and twice as long each time it opens again without a success in
 * between, up to {@code maxOpenFor}, and never shorter than the vendor's {@code retry-after}. Then half-open: one
 * probe call goes through while others wait; its success closes the breaker, its failure opens it again. Each
 * transition is logged once with the deployment (opening a warning). Shared by all event loops, hence synchronized;
 * each method is a few field updates.
 */
public final class CircuitBreaker {
    private static final Logger LOG = LoggerFactory.getLogger(CircuitBreaker.class);
    /** While a probe is out, how long a call waiting for the deployment looks again. */
    static final long PROBE_WAIT_MS = 100;

    /**
     * @param consecutiveFailures failures in a row (5xx, connection failures) that open the breaker
     * @param openFor             the first cooldown
     * @param maxOpenFor          the longest cooldown, however often it opens and whatever retry-after says
     */
    public record Thresholds(int consecutiveFailures, Duration openFor, Duration maxOpenFor) {
        public static final Thresholds DEFAULT = new Thresholds(10, Duration.ofSeconds(30), Duration.ofMinutes(10));

        public Thresholds {
            if (maxOpenFor.compareTo(openFor) < 0) maxOpenFor = openFor;
        }

        /** Growing up to twenty times the first cooldown. */
        public Thresholds(int consecutiveFailures, Duration openFor) {
            this(consecutiveFailures, openFor, openFor.multipliedBy(20));
        }
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

    /** The deployment's id, which the log lines name. */
    private final String deployment;
    private Thresholds thresholds;
    private final Ticker ticker;
    private State state = State.CLOSED;
    private int failures;
    /** Times opened since the last success: the next cooldown is {@code openFor × 2^opens}. */
    private int opens;
    private long openUntilNanos;
    private boolean probing;

    /** @param ticker what decides when a cooldown is over */
    public CircuitBreaker(Thresholds thresholds, Ticker ticker) {
        this("(unnamed)", thresholds, ticker);
    }

    /** @param deployment the deployment's id, named by the transitions' log lines */
    public CircuitBreaker(String deployment, Thresholds thresholds, Ticker ticker) {
        this.deployment = deployment;
        this.thresholds = thresholds;
        this.ticker = ticker;
    }

    /** A reload's cooldowns: they apply from the next failure on; the state (failures counted, open) stays. */
    synchronized void thresholds(Thresholds next) {
        this.thresholds = next;
    }

    public synchronized Permit acquire() {
        switch (state) {
            case CLOSED -> {
                return Permit.CALL;
            }
            case OPEN -> {
                if (ticker.nanos() - openUntilNanos < 0) return Permit.REFUSED;
                state = State.HALF_OPEN;
                probing = true;
                LOG.info("circuit breaker of deployment {} half-open: its cooldown is over, one probe call goes through", deployment);
                return Permit.PROBE;
            }
            default -> {
                if (probing) return Permit.REFUSED;
                probing = true;
                return Permit.PROBE;
            }
        }
    }

    public void record(Permit permit, Outcome outcome) {
        record(permit, outcome, -1);
    }

    /** @param retryAfterMs the vendor's retry hint on a failure, -1 when none: a cooldown is never shorter */
    public synchronized void record(Permit permit, Outcome outcome, long retryAfterMs) {
        if (permit == Permit.REFUSED) return;
        if (permit == Permit.PROBE) probing = false;
        switch (outcome) {
            case HEALTHY -> {
                if (state != State.CLOSED) LOG.info("circuit breaker of deployment {} closed: a call succeeded", deployment);
                failures = 0;
                opens = 0;
                state = State.CLOSED;
            }
            case FAILED -> {
                if (permit == Permit.PROBE) {
                    LOG.warn("circuit breaker of deployment {} open again: its probe failed; out of rotation for {} ms", deployment,
                            open(retryAfterMs));
                } else if (state == State.CLOSED && ++failures >= thresholds.consecutiveFailures()) {
                    LOG.warn("circuit breaker of deployment {} open after {} failures in a row: out of rotation for {} ms",
                            deployment, failures, open(retryAfterMs));
                }
            }
            case UNKNOWN -> { } // a probe without verdict just lets the next call probe
        }
    }

    /**
     * Takes the deployment out of rotation at once for the vendor's {@code retryAfterMs} (up to the longest cooldown), or
     * without one (-1) for the next cooldown's length: a rate limit on a deployment whose model has others to take its
     * traffic. The vendor knows when its limit resets; a longer cooldown would only idle the deployment.
     */
    public synchronized void coolDown(long retryAfterMs) {
        if (state == State.OPEN && retryAfterMs >= 0 && ticker.nanos() + retryAfterMs * 1_000_000 - openUntilNanos <= 0) return;
        probing = false;
        boolean was = state == State.OPEN;
        long ms;
        if (retryAfterMs < 0) {
            ms = open(-1);
        } else {
            ms = Math.min(thresholds.maxOpenFor().toMillis(), retryAfterMs);
            state = State.OPEN;
            failures = 0;
            openUntilNanos = ticker.nanos() + ms * 1_000_000;
        }
        if (!was) LOG.warn("circuit breaker of deployment {} open: rate-limited, out of rotation for {} ms", deployment, ms);
    }

    /**
     * Takes the deployment out of rotation until {@code untilNanos} (on the breaker's {@link Ticker}) as another instance
     * decided (shared cooldowns), unless it already is for longer.
     */
    public synchronized void coolUntil(long untilNanos) {
        if (state == State.OPEN && untilNanos - openUntilNanos <= 0) return;
        if (state == State.CLOSED) opens++;
        if (state != State.OPEN) {
            LOG.warn("circuit breaker of deployment {} open: another instance cooled it for {} ms", deployment,
                    Math.max(0, (untilNanos - ticker.nanos()) / 1_000_000));
        }
        state = State.OPEN;
        failures = 0;
        openUntilNanos = untilNanos;
    }

    /** 0 closed, 1 half-open (probing), 2 open: the breaker-state metric's value. */
    public synchronized int stateCode() {
        return switch (state) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        };
    }

    public synchronized long retryAfterMs() {
        return state == State.CLOSED ? 0 : Math.max(0, (openUntilNanos - ticker.nanos()) / 1_000_000);
    }

    /**
     * Milliseconds until a call may be sent: 0 when closed, or open past its cooldown (a probe may go), the rest of the
     * cooldown while open, a short wait while another call probes.
     */
    public synchronized long readyInMs() {
        return switch (state) {
            case CLOSED -> 0;
            case OPEN -> Math.max(0, (openUntilNanos - ticker.nanos() + 999_999) / 1_000_000);
            case HALF_OPEN -> probing ? PROBE_WAIT_MS : 0;
        };
    }

    /** The breaker's {@link Ticker} time when the current cooldown ends; meaningful while open. */
    public synchronized long openUntilNanos() {
        return state == State.OPEN ? openUntilNanos : 0;
    }

    public synchronized boolean open() {
        return state == State.OPEN;
    }

    /** @return the cooldown's length in milliseconds */
    private long open(long retryAfterMs) {
        long first = thresholds.openFor().toMillis();
        long max = thresholds.maxOpenFor().toMillis();
        long ms = Math.min(max, first << Math.min(opens, 20));
        if (retryAfterMs > ms) ms = Math.min(max, retryAfterMs);
        state = State.OPEN;
        failures = 0;
        opens++;
        openUntilNanos = ticker.nanos() + ms * 1_000_000;
        return ms;
    }
}
