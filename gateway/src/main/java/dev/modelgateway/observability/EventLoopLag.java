package dev.modelgateway.observability;

import io.vertx.core.Vertx;

/**
 * Event-loop health: a periodic timer on the loop, and how late it fires. A loop blocked by a task (or saturated)
 * runs its timers late by as much; the lag is recorded as {@code gateway_event_loop_lag_seconds}.
 */
final class EventLoopLag {
    static final long PERIOD_MS = 1000;

    private EventLoopLag() {
    }

    /** Starts the timer on the caller's context (a verticle's event loop); returns its id, for cancelling. */
    static long watch(Vertx vertx, GatewayMetrics metrics, String loop) {
        long[] expected = {System.nanoTime() + PERIOD_MS * 1_000_000};
        return vertx.setPeriodic(PERIOD_MS, id -> {
            long now = System.nanoTime();
            metrics.loopLag(loop, Math.max(0, now - expected[0]));
            expected[0] = now + PERIOD_MS * 1_000_000;
        });
    }
}
