package dev.modelgateway.server;

import dev.modelgateway.canonical.LocalTokenizer;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.time.Ticker;
import dev.modelgateway.upstream.CallsInFlight;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The shutdown's drain (docs/operations/shutdown-and-rollouts.md). From {@link #start()}: {@code /ready} answers 503;
 * the requests in flight go on, and new ones are still served, each response then closing its connection
 * ({@code Connection: close} over HTTP/1.1, GOAWAY over HTTP/2) so that the client's next request opens a connection
 * the load balancer sends elsewhere. The drain is over once no request is in flight (each counts until its response
 * has ended and its call has its ledger row), or at {@code server.drain_seconds}: then the vendor calls still running
 * are ended ({@link CallsInFlight}: a stream with its protocol's error event, code {@code server_shutting_down}) and
 * their requests get {@link #RECORD_GRACE_MS} to write their rows. A request arriving after the drain, before the port
 * closes, is answered 503 {@code server_shutting_down}.
 *
 * <p>The deadline is read on the gateway's {@link Ticker} by a timer that looks every {@link #LOOK_EVERY_MS} ms, so
 * that a test advances a clock instead of waiting; nothing blocks an event loop.
 */
final class Drain {
    private static final Logger LOG = LoggerFactory.getLogger(Drain.class);
    /** How often the drain looks at its clock: the deadline is met within this. */
    static final long LOOK_EVERY_MS = 100;
    /** After the deadline's cut, the most the cut calls' requests are waited for (their rows, then their ends). */
    static final long RECORD_GRACE_MS = 3_000;

    private final Vertx vertx;
    private final Ticker ticker;
    private final long drainNanos;
    private final CallsInFlight calls;
    /** The requests in flight, each with the event loop that serves it. */
    private final Map<RoutingContext, Context> requests = new ConcurrentHashMap<>();
    private final Promise<Void> over = Promise.promise();
    private volatile boolean draining;
    private long startNanos;

    Drain(Vertx vertx, Ticker ticker, long drainSeconds, CallsInFlight calls) {
        this.vertx = vertx;
        this.ticker = ticker;
        this.drainNanos = TimeUnit.SECONDS.toNanos(drainSeconds);
        this.calls = calls;
        over.future().onSuccess(v -> LOG.info("drain over after {} ms", TimeUnit.NANOSECONDS.toMillis(ticker.nanos() - startNanos)));
    }

    /** Whether the drain has begun: {@code /ready} answers 503. */
    boolean draining() {
        return draining;
    }

    /**
     * Counts a request in, until its response has ended and its call has its record ({@code RequestTrace}'s finish,
     * which calls {@link #ended}); after the drain it is answered 503 at once, and false returned.
     */
    boolean started(RoutingContext ctx) {
        if (over.future().isComplete()) {
            Exchange.fail(ctx, new GatewayException.ShuttingDown());
            return false;
        }
        requests.put(ctx, Vertx.currentContext());
        ctx.addHeadersEndHandler(v -> {
            if (draining && ctx.request().version() != HttpVersion.HTTP_2) ctx.response().putHeader("connection", "close");
        });
        if (draining) closeAfter(ctx.request().connection());
        return true;
    }

    /** A request has ended and its call has its record. */
    void ended(RoutingContext ctx) {
        if (requests.remove(ctx) != null && draining && requests.isEmpty()) over.tryComplete();
    }

    /** Begins the drain, once; completes when it is over (never fails). */
    synchronized Future<Void> start() {
        if (draining) return over.future();
        startNanos = ticker.nanos();
        draining = true;
        LOG.info("draining: /ready answers 503; {} requests in flight may go on for up to {} s (server.drain_seconds)",
                requests.size(), TimeUnit.NANOSECONDS.toSeconds(drainNanos));
        requests.forEach((ctx, loop) -> loop.runOnContext(v -> closeAfter(ctx.request().connection())));
        if (requests.isEmpty()) {
            over.tryComplete();
        } else {
            // a stream cut at the deadline is billed the text it relayed, counted by the local tokenizer, whose ranks
            // take a second to load on their first use: loaded now, beside the event loop, not at the deadline
            vertx.executeBlocking(() -> LocalTokenizer.count("drain"), false);
            look();
        }
        return over.future();
    }

    private void look() {
        if (over.future().isComplete()) return;
        long leftMs = TimeUnit.NANOSECONDS.toMillis(drainNanos - (ticker.nanos() - startNanos));
        if (leftMs > 0) {
            vertx.setTimer(Math.min(LOOK_EVERY_MS, leftMs), id -> look());
            return;
        }
        int ended = calls.endAll(new GatewayException.ShuttingDown());
        LOG.warn("drain deadline (server.drain_seconds): {} requests still in flight; {} vendor calls ended with {}",
                requests.size(), ended, GatewayException.ShuttingDown.CODE);
        vertx.setTimer(RECORD_GRACE_MS, id -> {
            if (over.tryComplete()) LOG.warn("{} requests still in flight {} ms after the drain's deadline: cut", requests.size(),
                    RECORD_GRACE_MS);
        });
    }

    /**
     * The connection closes once its response in progress has ended (HTTP/1.1), or takes no new stream (HTTP/2's
     * GOAWAY). Vert.x closes it at the latest after the drain, the grace and a second more, which the drain's own end
     * comes before.
     */
    private void closeAfter(HttpConnection connection) {
        connection.shutdown(Duration.ofNanos(drainNanos).plusMillis(RECORD_GRACE_MS + 1_000).toMillis(), TimeUnit.MILLISECONDS);
    }
}
