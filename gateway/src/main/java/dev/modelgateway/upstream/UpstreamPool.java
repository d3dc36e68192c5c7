package dev.modelgateway.upstream;

import dev.modelgateway.config.VendorPool;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.observability.LogThrottle;
import io.vertx.core.Future;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.RequestOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One vendor deployment's connections on one event loop: a Vert.x client whose pool holds at most
 * {@link VendorPool#maxConnections()} connections and queues at most {@link VendorPool#maxQueued()} calls, and
 * a count of the calls that hold or wait for one. The count is what tells the gateway's own saturation from
 * the vendor's failure: a call with no connection yet while every connection is busy is waiting on the gateway,
 * and when that wait ends badly (the queue is full, the wait or the deadline is over) the caller gets 503
 * {@code gateway_overloaded} with a retry hint, and the vendor's circuit breaker hears nothing (issue 13).
 */
final class UpstreamPool {
    private static final Logger LOG = LoggerFactory.getLogger(UpstreamPool.class);
    /** Seconds a refused caller is asked to wait: long enough for short answers to free connections. */
    private static final String RETRY_AFTER_SECONDS = "1";

    private final HttpClientAgent client;
    private final VendorPool limits;
    private final String vendor;
    private final AtomicInteger calls = new AtomicInteger();
    /** At most one warning per pool every 10 s, with the count of refusals since the last one. */
    private final LogThrottle warnings = new LogThrottle(Duration.ofSeconds(10));

    UpstreamPool(HttpClientAgent client, VendorPool limits, String vendor) {
        this.client = client;
        this.limits = limits;
        this.vendor = vendor;
    }

    /** Calls holding or waiting for one of this pool's connections (the pool-usage metric). */
    int calls() {
        return calls.get();
    }

    /**
     * A request on one of the pool's connections, once one is free; the call counts against the pool until
     * {@code over} completes (the attempt's end, when its connection has been released or reset).
     */
    Future<HttpClientRequest> request(RequestOptions options, Future<?> over) {
        if (calls.get() >= limits.maxConnections() + limits.maxQueued()) {
            return Future.failedFuture(overloaded("all " + limits.maxConnections() + " of its connections to vendor '" + vendor
                    + "' are busy and " + limits.maxQueued() + " calls already wait for one"));
        }
        calls.incrementAndGet();
        over.onComplete(v -> calls.decrementAndGet());
        return client.request(options).recover(t -> Future.failedFuture(
                t instanceof ConnectionPoolTooBusyException ? overloaded("all " + limits.maxConnections() + " of its connections to vendor '"
                        + vendor + "' are busy and its queue of " + limits.maxQueued() + " is full")
                // Vert.x's wait covers the pool's queue and the TCP connect alike: only a full pool makes it the gateway's
                : t instanceof TimeoutException && saturated() ? overloaded("no connection to vendor '" + vendor + "' came free within "
                        + options.getConnectTimeout() + " ms (all " + limits.maxConnections() + " busy)")
                : t));
    }

    /** True when a call without a connection is waiting for one: every connection is held by another call. */
    boolean saturated() {
        return calls.get() - 1 >= limits.maxConnections();
    }

    /** The deadline of a call passed while it waited in this pool's queue. */
    GatewayException deadlineWhileQueued(long deadlineMs) {
        return overloaded("the call's deadline (" + deadlineMs + " ms) passed while it waited for one of its "
                + limits.maxConnections() + " busy connections to vendor '" + vendor + "'");
    }

    private GatewayException overloaded(String why) {
        long refused = warnings.occurred();
        if (refused > 0) {
            LOG.warn("gateway overloaded: {}; {} call(s) refused since the last warning (vendors.{}.max_connections / max_queued)",
                    why, refused, vendor);
        }
        return new GatewayException.Overloaded("The gateway is overloaded: " + why + ". Retry after "
                + RETRY_AFTER_SECONDS + " s.", RETRY_AFTER_SECONDS);
    }

    Future<Void> close() {
        return client.shutdown(1, TimeUnit.SECONDS);
    }
}
