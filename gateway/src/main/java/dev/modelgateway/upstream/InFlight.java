package dev.modelgateway.upstream;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;

/**
 * One upstream call running under the call's deadline. When the deadline passes before the call is
 * over (or, for a stream, before its first byte reached the caller), the upstream request is reset, which
 * closes its connection, and the attempt fails with a timeout; or, when the call was still waiting for one of
 * the gateway's busy connections, with the gateway's own overload. A caller who goes away resets it too, and
 * the attempt then ends as the caller's exit, never as the vendor's failure. A call a caller waits on is one of the
 * {@link CallsInFlight} that a shutdown's drain ends at its deadline: as the relay of its answer ends it once that has
 * begun, else like a passed deadline, failing with the shutdown's reason.
 */
final class InFlight<T> {
    private static final Logger LOG = LoggerFactory.getLogger(InFlight.class);

    private final Vertx vertx;
    /** The caller waiting for the answer; null for a background call (transcription tasks). */
    private final HttpServerResponse caller;
    private final VendorRequest req;
    private final String vendor;
    private final Promise<T> result = Promise.promise();
    private UpstreamPool pool;
    private HttpClientRequest upstream;
    private long timer = -1;
    private boolean expired;
    /** The deadline passed while the call waited for a connection of a saturated pool: the gateway's condition. */
    private GatewayException expiredQueued;
    /** The drain ended the call as the gateway shut down; null until then. */
    private GatewayException shutDown;
    /** How the relay of the answer ends it for the drain, once the answer has arrived; null before. */
    private Consumer<GatewayException> relayEnd;

    InFlight(Vertx vertx, HttpServerResponse caller, VendorRequest req, CallsInFlight inFlight) {
        this.vertx = vertx;
        this.caller = caller;
        this.req = req;
        this.vendor = req.endpoint().vendor().id();
        if (caller != null) {
            Runnable remove = inFlight.add(vertx.getOrCreateContext(), this::shutDown);
            result.future().onComplete(ar -> remove.run());
        }
        long remaining = req.deadline().remainingMs();
        if (remaining <= 0) expire();
        else timer = vertx.setTimer(remaining, id -> {
            timer = -1;
            expire();
        });
    }

    Future<HttpClientResponse> send(VendorClients clients) {
        if (expired) return Future.failedFuture(timeout());
        if (req.endpoint().apiKey() != null) pool = clients.pool(req.endpoint());
        return clients.send(req, this::attach, result.future()).recover(t -> Future.failedFuture(failure(t)));
    }

    private void attach(HttpClientRequest request) {
        upstream = request;
        // A reset before the request is sent (its caller left, or its deadline passed, while it waited for a
        // connection) goes to this handler; without one Vert.x logs every such reset at ERROR.
        request.exceptionHandler(t -> LOG.debug("vendor {}: upstream request ended before it was sent: {}", vendor, t.toString()));
        if (caller != null) caller.closeHandler(v -> request.reset());
        if (expired || shutDown != null || callerLeft()) request.reset();
    }

    /** The relay of the answer, which has arrived, ends it when the drain asks (a stream with its error event). */
    void relayedBy(Consumer<GatewayException> end) {
        this.relayEnd = end;
    }

    /** The drain's deadline: the relay ends the answer it has begun; a call still waiting for one fails. */
    private void shutDown(GatewayException reason) {
        if (result.future().isComplete() || shutDown != null) return;
        shutDown = reason;
        if (relayEnd != null) {
            relayEnd.accept(reason);
            return;
        }
        if (upstream != null) upstream.reset();
        result.tryFail(reason);
    }

    /** The reason the drain ended this call; null while it has not. */
    GatewayException shutDown() {
        return shutDown;
    }

    /** The first byte went to the caller: from now on only the idle timeout applies. */
    void committed() {
        if (timer >= 0) vertx.cancelTimer(timer);
        timer = -1;
    }

    /**
     * What a transport failure means for this call: the caller's exit when it went away (its leaving reset the
     * upstream request), a timeout once the deadline has passed, else the vendor's failure.
     */
    GatewayException failure(Throwable t) {
        if (callerLeft()) return callerGone();
        if (shutDown != null) return shutDown;
        return expired ? timeout() : TransportFailures.classify(t, vendor);
    }

    /** The caller went away before its answer was complete (a response it was sent whole is not a departure). */
    boolean callerLeft() {
        return caller != null && caller.closed() && !caller.ended();
    }

    long idleMs() {
        return req.deadline().idleMs();
    }

    boolean expired() {
        return expired;
    }

    void complete(Future<T> outcome) {
        outcome.onComplete(ar -> {
            committed();
            if (ar.succeeded()) result.tryComplete(ar.result());
            else result.tryFail(expired ? timeout() : ar.cause());
        });
    }

    Future<T> result() {
        return result.future();
    }

    private void expire() {
        expired = true;
        if (upstream == null && pool != null && pool.saturated()) {
            expiredQueued = pool.deadlineWhileQueued(req.deadline().idleMs());
            // Still in Vert.x's queue, whose wait ends at the same deadline (VendorClients.send): that failure,
            // a moment later, gives its place back first. Failing now would answer before, and the next caller
            // could find the queue still full.
            return;
        }
        if (upstream != null) upstream.reset();
        result.tryFail(timeout());
    }

    GatewayException timeout() {
        if (expiredQueued != null) return expiredQueued;
        return GatewayException.of(ErrorKind.TIMEOUT, "Vendor '" + vendor + "' did not answer within the call's deadline ("
                + req.deadline().idleMs() + " ms).").withCode("deadline_exceeded");
    }

    private GatewayException callerGone() {
        return new GatewayException.CallerLeft("The caller went away before vendor '" + vendor + "' answered.");
    }
}
