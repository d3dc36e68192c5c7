package dev.modelgateway.upstream;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;

/**
 * One upstream call running under the call's deadline. When the deadline passes before the call is
 * over (or, for a stream, before its first byte reached the caller), the upstream request is reset, which
 * closes its connection, and the attempt fails with a timeout. A caller who goes away resets it too.
 */
final class InFlight<T> {
    private final Vertx vertx;
    /** The caller waiting for the answer; null for a background call (transcription tasks). */
    private final HttpServerResponse caller;
    private final VendorRequest req;
    private final String vendor;
    private final Promise<T> result = Promise.promise();
    private HttpClientRequest upstream;
    private long timer = -1;
    private boolean expired;

    InFlight(Vertx vertx, HttpServerResponse caller, VendorRequest req) {
        this.vertx = vertx;
        this.caller = caller;
        this.req = req;
        this.vendor = req.endpoint().vendor().id();
        long remaining = req.deadline().remainingMs();
        if (remaining <= 0) expire();
        else timer = vertx.setTimer(remaining, id -> {
            timer = -1;
            expire();
        });
    }

    Future<HttpClientResponse> send(VendorClients clients) {
        if (expired) return Future.failedFuture(timeout());
        return clients.send(req, this::attach).recover(t -> Future.failedFuture(failure(t)));
    }

    private void attach(HttpClientRequest request) {
        upstream = request;
        if (caller != null) caller.closeHandler(v -> request.reset());
        if (expired || (caller != null && caller.closed())) request.reset();
    }

    /** The first byte went to the caller: from now on only the idle timeout applies. */
    void committed() {
        if (timer >= 0) vertx.cancelTimer(timer);
        timer = -1;
    }

    /** What a transport failure means for this call: a timeout once the deadline has passed. */
    GatewayException failure(Throwable t) {
        return expired ? timeout() : TransportFailures.classify(t, vendor);
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
        if (upstream != null) upstream.reset();
        result.tryFail(timeout());
    }

    GatewayException timeout() {
        return GatewayException.of(ErrorKind.TIMEOUT, "Vendor '" + vendor + "' did not answer within the call's deadline ("
                + req.deadline().idleMs() + " ms).").withCode("deadline_exceeded");
    }
}
