package dev.modelgateway.upstream;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.VendorAnswerLimits;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.credentials.RefreshingCredential;
import dev.modelgateway.error.AttemptFailure;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.http.BodyWork;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.routing.RetryRule;
import dev.modelgateway.wire.StreamTap;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Function;

/**
 * Sends one upstream request and relays its answer to the caller: a JSON body through a
 * {@link JsonAnswer} (unchanged on the native path, re-encoded on the translated one), or an SSE stream
 * through a {@link StreamTap}, frame by frame as it arrives, with backpressure.
 *
 * <p>Both methods fail without writing anything while nothing has been sent (a non-2xx answer as an
 * {@link VendorError} or what {@code errors} makes of it, a transport failure, the deadline, an open
 * circuit breaker), so that the caller may retry or fall back. Once the first byte is written, failures
 * end the stream with the protocol's own error event instead.
 */
public final class Relay {
    private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

    private final VendorClients clients;
    private final CircuitBreakers breakers;
    private final VendorAnswerLimits limits;
    private final CallsInFlight inFlight;

    /** A relay whose calls no drain ends (background calls: transcription tasks; tests). */
    public Relay(VendorClients clients, CircuitBreakers breakers, VendorAnswerLimits limits) {
        this(clients, breakers, limits, new CallsInFlight());
    }

    /**
     * @param limits   caps on what vendors send back (the operator's {@code server.max_vendor_*} settings)
     * @param inFlight where the calls that callers wait on are listed, for the shutdown's drain to end
     */
    public Relay(VendorClients clients, CircuitBreakers breakers, VendorAnswerLimits limits, CallsInFlight inFlight) {
        this.clients = clients;
        this.breakers = breakers;
        this.limits = limits;
        this.inFlight = inFlight;
    }

    /**
     * The whole body of a vendor's answer, failing with a 502 (and resetting the upstream request, which closes
     * its connection) as soon as it is known to pass {@link VendorAnswerLimits#maxAnswerBytes()}.
     */
    private Future<Buffer> body(HttpClientResponse resp, String vendor) {
        long max = limits.maxAnswerBytes();
        String length = resp.getHeader("content-length");
        if (length != null && parseOr(length, -1) > max) {
            abandon(resp);
            return Future.failedFuture(tooLarge(vendor));
        }
        // a declared length within the cap: Vert.x's own reader, which buffers what arrived before it was asked
        if (length != null && parseOr(length, -1) >= 0) return resp.body();
        Promise<Buffer> done = Promise.promise();
        Buffer body = Buffer.buffer();
        resp.handler(chunk -> {
            if (done.future().isComplete()) return;
            if (body.length() + (long) chunk.length() > max) {
                done.tryFail(tooLarge(vendor));
                resp.request().reset();
                return;
            }
            body.appendBuffer(chunk);
        });
        resp.exceptionHandler(done::tryFail);
        resp.endHandler(v -> done.tryComplete(body));
        return done.future();
    }

    /**
     * Resets an upstream call the gateway gives up on. The reset fails the response with a {@code StreamResetException}
     * of its own, which Vert.x logs as an error when the response has no exception handler yet: the reset is the
     * gateway's decision, not a fault.
     */
    private static void abandon(HttpClientResponse resp) {
        resp.exceptionHandler(t -> LOG.debug("upstream call reset by the gateway: {}", t.toString()));
        resp.request().reset();
    }

    private GatewayException tooLarge(String vendor) {
        return GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor + "' sent an answer larger than the gateway's"
                + " limit of " + limits.maxAnswerBytes() + " bytes (server.max_vendor_answer_bytes).").withCode("upstream_answer_too_large");
    }

    private static long parseOr(String s, long dflt) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    /** The calls that callers wait on, which a shutdown's drain ends (realtime sessions list themselves there too). */
    public CallsInFlight inFlight() {
        return inFlight;
    }

    /** The deployments' breakers this relay consults. */
    public CircuitBreakers breakers() {
        return breakers;
    }

    public Future<RelayOutcome> json(Exchange ex, VendorRequest req, JsonAnswer answer, VendorErrorMapper errors) {
        String vendor = req.endpoint().vendor().id();
        return guarded(ex, req, call -> call.send(clients).compose(resp -> body(resp, vendor)
                .recover(t -> Future.failedFuture(t instanceof GatewayException g ? g : call.failure(t)))
                .compose(body -> {
                    if (resp.statusCode() / 100 != 2) {
                        return Future.failedFuture(errors.map(new VendorError(resp.statusCode(), resp.headers(), body)));
                    }
                    // an answer of megabytes (images as base64) is decoded and re-encoded beside the event loop
                    return BodyWork.run(ex.vertx(), body.length(), () -> answer.answer(body)).compose(a -> {
                        HttpServerResponse out = ex.response();
                        if (call.expired()) return Future.failedFuture(call.timeout());
                        // the drain ended the call meanwhile: its error is the caller's answer, and its row written
                        if (call.shutDown() != null) return Future.failedFuture(call.shutDown());
                        if (out.closed()) return Future.succeededFuture(new RelayOutcome.CallerLeft(a.usage(), null));
                        ex.answerEnding(200, a.usage(), ex.elapsedMs());
                        out.setStatusCode(200).putHeader("content-type", "application/json").end(a.body());
                        return Future.succeededFuture(new RelayOutcome.Answered(200, a.usage(), ex.elapsedMs()));
                    });
                })));
    }

    public Future<RelayOutcome> stream(Exchange ex, VendorRequest req, StreamTap tap, VendorErrorMapper errors) {
        String vendor = req.endpoint().vendor().id();
        return guarded(ex, req, call -> call.send(clients).compose(resp -> {
            boolean notAStream = StreamFraming.notAStream(req.endpoint(), resp.getHeader("content-type"));
            if (resp.statusCode() / 100 != 2 || notAStream) {
                int status = notAStream && resp.statusCode() / 100 == 2 ? 502 : resp.statusCode();
                return body(resp, vendor)
                        .recover(t -> Future.succeededFuture(Buffer.buffer()))
                        .compose(body -> Future.failedFuture(errors.map(new VendorError(status, resp.headers(), body))));
            }
            StreamFraming framing = StreamFraming.of(req.endpoint(), (int) Math.min(Integer.MAX_VALUE, limits.maxEventBytes()));
            return new StreamPump(ex, resp, tap, vendor, call, limits, framing).run();
        }));
    }

    /**
     * Relays a binary answer (audio) chunk by chunk as the vendor sends it, with backpressure and the vendor's
     * content type; {@code usage} is known before the call (the body carries none). A binary body has no error
     * event: when the vendor breaks off, or the answer runs past {@link VendorAnswerLimits#maxStreamSeconds()}, the
     * caller's response is reset rather than ended, so that the caller sees a broken transfer, not a short one.
     */
    public Future<RelayOutcome> bytes(Exchange ex, VendorRequest req, Usage usage, VendorErrorMapper errors) {
        String vendor = req.endpoint().vendor().id();
        return guarded(ex, req, call -> call.send(clients).compose(resp -> {
            if (resp.statusCode() / 100 != 2) {
                return body(resp, vendor)
                        .recover(t -> Future.succeededFuture(Buffer.buffer()))
                        .compose(body -> Future.failedFuture(errors.map(new VendorError(resp.statusCode(), resp.headers(), body))));
            }
            call.committed();
            HttpServerResponse out = ex.response().setChunked(true);
            String type = resp.getHeader("content-type");
            out.putHeader("content-type", type != null ? type : "application/octet-stream");
            Long ttft = ex.elapsedMs();
            Promise<RelayOutcome> done = Promise.promise();
            // a binary answer has no error event: the drain breaks it off, like the vendor's breaking off
            call.relayedBy(reason -> {
                if (done.tryComplete(new RelayOutcome.ShutDown(usage, ttft, null))) {
                    out.reset();
                    resp.request().reset();
                }
            });
            long timer = ex.vertx().setTimer(limits.maxStreamMs(), id -> {
                if (done.tryComplete(new RelayOutcome.CutOff(usage, ttft))) {
                    LOG.warn("vendor '{}' sent audio for longer than the limit of {} s (server.max_vendor_stream_seconds):"
                            + " cut off", vendor, limits.maxStreamSeconds());
                    out.reset();
                    resp.request().reset();
                }
            });
            resp.pipe().endOnFailure(false).to(out).onComplete(ar -> {
                ex.vertx().cancelTimer(timer);
                if (ar.succeeded()) {
                    done.tryComplete(new RelayOutcome.Answered(200, usage, ttft));
                } else if (done.tryComplete(out.closed() && !out.ended() ? new RelayOutcome.CallerLeft(usage, ttft)
                        : new RelayOutcome.CutOff(usage, ttft))) {
                    out.reset();
                }
            });
            return done.future();
        }));
    }

    /**
     * A call no caller waits for (background tasks): the vendor's 2xx answer, or a failure ({@link VendorError}
     * for a non-2xx answer), behind the same circuit breaker and under the request's deadline.
     */
    public Future<Answer> fetch(Vertx vertx, VendorRequest req) {
        String vendor = req.endpoint().vendor().id();
        return guarded(vertx, null, req, call -> call.send(clients).compose(resp -> body(resp, vendor)
                .recover(t -> Future.failedFuture(t instanceof GatewayException g ? g : call.failure(t)))
                .compose(body -> resp.statusCode() / 100 == 2
                        ? Future.succeededFuture(new Answer(resp.headers(), body))
                        : Future.failedFuture(new VendorError(resp.statusCode(), resp.headers(), body)))),
                answer -> CircuitBreaker.Outcome.HEALTHY);
    }

    /** A vendor's 2xx answer to a {@link #fetch}. */
    public record Answer(MultiMap headers, Buffer body) {
    }

    private Future<RelayOutcome> guarded(Exchange ex, VendorRequest req, Function<InFlight<RelayOutcome>, Future<RelayOutcome>> send) {
        // W3C trace context upstream: the attempt's span, or the caller's traceparent when tracing is off
        ex.trace().inject(req.headers());
        return guarded(ex.vertx(), ex.response(), req, send, outcome -> switch (outcome) {
            case RelayOutcome.Answered a -> CircuitBreaker.Outcome.HEALTHY;
            case RelayOutcome.CutOff c -> CircuitBreaker.Outcome.FAILED;
            case RelayOutcome.CallerLeft c -> CircuitBreaker.Outcome.UNKNOWN;
            case RelayOutcome.ShutDown s -> CircuitBreaker.Outcome.UNKNOWN;
        });
    }

    /**
     * Runs one call behind the deployment's circuit breaker and under the call's deadline; {@code caller} is the
     * response waiting for it (null for a background call), {@code health} what a success says of the deployment.
     */
    private <T> Future<T> guarded(Vertx vertx, HttpServerResponse caller, VendorRequest req,
                                  Function<InFlight<T>, Future<T>> send, Function<T, CircuitBreaker.Outcome> health) {
        CircuitBreaker breaker = breakers.of(req.endpoint());
        CircuitBreaker.Permit permit = breaker.acquire();
        if (permit == CircuitBreaker.Permit.REFUSED) return Future.failedFuture(circuitOpen(req, breaker));
        InFlight<T> call = new InFlight<>(vertx, caller, req, inFlight);
        Future<T> sent;
        try {
            sent = send.apply(call);
        } catch (RuntimeException e) {
            sent = Future.failedFuture(e);
        }
        call.complete(sent);
        // A caller who left says nothing about the vendor, whatever its leaving did to the upstream call (the reset
        // can end a stream as if the vendor had cut it): checked first, so no ordering of handlers can count it.
        return call.result().andThen(ar -> {
            boolean wasOpen = breaker.open();
            AttemptFailure failure = ar.failed() ? AttemptFailure.of(ar.cause()) : null;
            breaker.record(permit, call.callerLeft() ? CircuitBreaker.Outcome.UNKNOWN
                    : failure == null ? health.apply(ar.result()) : RetryRule.health(failure),
                    failure == null ? -1 : RetryRule.retryAfterMs(failure));
            // credentials that cannot be had: out of rotation at once, until the source is asked again (docs/clouds.md)
            if (ar.failed() && ar.cause() instanceof GatewayException g
                    && RefreshingCredential.CREDENTIALS_UNAVAILABLE.equals(g.code())) {
                breaker.coolDown(RetryRule.retryAfterMs(failure));
            }
            if (!wasOpen) breakers.opened(req.endpoint().id(), breaker);
        });
    }

    private static GatewayException circuitOpen(VendorRequest req, CircuitBreaker breaker) {
        long seconds = Math.max(1, (breaker.retryAfterMs() + 999) / 1000);
        VendorEndpoint e = req.endpoint();
        String who = e.provider().equals(e.vendor().id()) ? "Vendor '" + e.vendor().id() + "'" : "Deployment '" + e.id() + "'";
        return new GatewayException.CircuitOpen(who
                + " failed every recent request; the gateway stops calling it for " + seconds + " s (circuit open).", seconds);
    }
}
