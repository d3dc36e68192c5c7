package dev.modelgateway.call;

import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.wire.FannedOperation;
import dev.modelgateway.wire.OperationAnswer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The requests of one {@link FannedOperation} on the chosen deployment, answered to the caller as one: all but the
 * last fetched through the relay ({@code Relay.fetch}: the deployment's breaker, pool and credentials, each under the
 * operation's one deadline), at most {@link #CONCURRENCY} at a time; then the last relayed as a JSON answer whose
 * body and usage are made from every answer ({@code Relay.json}), so the caller's answer and its ledger row are
 * written as any operation's. The first failure is the operation's error, and no further request is sent.
 */
final class FannedCall {
    /**
     * Requests of one call in flight at once: a few, so that one call of many inputs neither queues behind itself for
     * long nor takes the deployment's connections from the other calls.
     */
    static final int CONCURRENCY = 4;

    private FannedCall() {
    }

    static Future<RelayOutcome> relay(CallServices services, Exchange ex, List<VendorRequest> requests,
                                      Function<List<Buffer>, OperationAnswer.Decoded> answer, VendorErrorMapper errors) {
        Buffer[] bodies = new Buffer[requests.size()];
        List<VendorRequest> before = requests.subList(0, requests.size() - 1);
        return fetched(services, ex, before, bodies, errors).compose(v -> services.relay().json(ex, requests.getLast(), last -> {
            bodies[bodies.length - 1] = last;
            OperationAnswer.Decoded decoded = answer.apply(Arrays.asList(bodies));
            return new JsonAnswer.Answer(decoded.body(), decoded.usage());
        }, errors));
    }

    /** Fetches {@code requests} into {@code bodies} (same indexes), a few at a time; fails with the first failure. */
    private static Future<Void> fetched(CallServices services, Exchange ex, List<VendorRequest> requests, Buffer[] bodies,
                                        VendorErrorMapper errors) {
        if (requests.isEmpty()) return Future.succeededFuture();
        Fetches fetches = new Fetches(services, ex, requests, bodies, errors);
        for (int i = 0; i < Math.min(CONCURRENCY, requests.size()); i++) fetches.next();
        return fetches.done.future();
    }

    /** The fetches under way: the next to start, how many answered, the outcome. Touched on the call's event loop only. */
    private static final class Fetches {
        private final CallServices services;
        private final Exchange ex;
        private final List<VendorRequest> requests;
        private final Buffer[] bodies;
        private final VendorErrorMapper errors;
        private final Promise<Void> done = Promise.promise();
        private int started;
        private int answered;

        Fetches(CallServices services, Exchange ex, List<VendorRequest> requests, Buffer[] bodies, VendorErrorMapper errors) {
            this.services = services;
            this.ex = ex;
            this.requests = requests;
            this.bodies = bodies;
            this.errors = errors;
        }

        void next() {
            if (started == requests.size() || done.future().isComplete()) return;
            if (ex.response().closed()) {
                done.tryFail(new GatewayException.CallerLeft("The caller went away before vendor '"
                        + requests.getFirst().endpoint().vendor().id() + "' answered."));
                return;
            }
            int i = started++;
            VendorRequest request = requests.get(i);
            // W3C trace context upstream, as the relay puts it on the calls a caller waits for
            ex.trace().inject(request.headers());
            services.relay().fetch(ex.vertx(), request).onComplete(ar -> {
                if (ar.failed()) {
                    done.tryFail(ar.cause() instanceof VendorError e ? errors.map(e) : ar.cause());
                    return;
                }
                bodies[i] = ar.result().body();
                if (++answered == requests.size()) done.tryComplete();
                else next();
            });
        }
    }
}
