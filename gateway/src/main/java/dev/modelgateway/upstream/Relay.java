package dev.modelgateway.upstream;

import dev.modelgateway.error.VendorError;
import dev.modelgateway.wire.StreamTap;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.sse.SseParser;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import java.util.Map;
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
    private final VendorClients clients;
    private final CircuitBreakers breakers;

    public Relay(VendorClients clients, CircuitBreakers breakers) {
        this.clients = clients;
        this.breakers = breakers;
    }

    public Future<RelayOutcome> json(RoutingContext ctx, VendorRequest req, JsonAnswer answer, VendorErrorMapper errors) {
        return guarded(ctx, req, call -> call.send(clients).compose(resp -> resp.body()
                .recover(t -> Future.failedFuture(call.failure(t)))
                .compose(body -> {
                    if (resp.statusCode() / 100 != 2) {
                        return Future.failedFuture(errors.map(new VendorError(resp.statusCode(), resp.headers(), body)));
                    }
                    JsonAnswer.Answer a = answer.answer(body);
                    HttpServerResponse out = ctx.response();
                    if (call.expired()) return Future.failedFuture(call.timeout());
                    if (out.closed()) return Future.succeededFuture(new RelayOutcome(499, a.usage(), null, false));
                    out.setStatusCode(200).putHeader("content-type", "application/json").end(a.body());
                    return Future.succeededFuture(new RelayOutcome(200, a.usage(), elapsedMs(ctx), false));
                })));
    }

    public Future<RelayOutcome> stream(RoutingContext ctx, VendorRequest req, StreamTap tap, VendorErrorMapper errors) {
        String vendor = req.endpoint().vendor().id();
        return guarded(ctx, req, call -> call.send(clients).compose(resp -> {
            if (resp.statusCode() / 100 != 2) {
                return resp.body()
                        .recover(t -> Future.succeededFuture(Buffer.buffer()))
                        .compose(body -> Future.failedFuture(errors.map(new VendorError(resp.statusCode(), resp.headers(), body))));
            }
            return new StreamPump(ctx, resp, tap, vendor, call).run();
        }));
    }

    /**
     * Relays a binary answer (audio) chunk by chunk as the vendor sends it, with backpressure and the vendor's
     * content type; {@code usage} is known before the call (the body carries none).
     */
    public Future<RelayOutcome> bytes(RoutingContext ctx, VendorRequest req, Usage usage, VendorErrorMapper errors) {
        return guarded(ctx, req, call -> call.send(clients).compose(resp -> {
            if (resp.statusCode() / 100 != 2) {
                return resp.body()
                        .recover(t -> Future.succeededFuture(Buffer.buffer()))
                        .compose(body -> Future.failedFuture(errors.map(new VendorError(resp.statusCode(), resp.headers(), body))));
            }
            call.committed();
            HttpServerResponse out = ctx.response().setChunked(true);
            String type = resp.getHeader("content-type");
            out.putHeader("content-type", type != null ? type : "application/octet-stream");
            Long ttft = elapsedMs(ctx);
            return resp.pipeTo(out).transform(ar -> Future.succeededFuture(
                    ar.succeeded() ? new RelayOutcome(200, usage, ttft, false) : new RelayOutcome(502, usage, ttft, true)));
        }));
    }

    /** Runs one call behind the deployment's circuit breaker and under the call's deadline. */
    private Future<RelayOutcome> guarded(RoutingContext ctx, VendorRequest req, Function<InFlight, Future<RelayOutcome>> send) {
        CircuitBreaker breaker = breakers.of(req.endpoint());
        CircuitBreaker.Permit permit = breaker.acquire();
        if (permit == CircuitBreaker.Permit.REFUSED) return Future.failedFuture(circuitOpen(req, breaker));
        InFlight call = new InFlight(ctx, req);
        Future<RelayOutcome> sent;
        try {
            sent = send.apply(call);
        } catch (RuntimeException e) {
            sent = Future.failedFuture(e);
        }
        call.complete(sent);
        return call.result().andThen(ar -> breaker.record(permit, health(ctx, ar)));
    }

    private static CircuitBreaker.Outcome health(RoutingContext ctx, AsyncResult<RelayOutcome> ar) {
        if (ar.succeeded()) {
            return switch (ar.result().status()) {
                case 499 -> CircuitBreaker.Outcome.UNKNOWN;
                case 200 -> CircuitBreaker.Outcome.HEALTHY;
                default -> CircuitBreaker.Outcome.FAILED; // a stream cut or failed by the vendor
            };
        }
        return ctx.response().closed() ? CircuitBreaker.Outcome.UNKNOWN : TransportFailures.health(ar.cause());
    }

    private static GatewayException circuitOpen(VendorRequest req, CircuitBreaker breaker) {
        long seconds = Math.max(1, (breaker.retryAfterMs() + 999) / 1000);
        return new GatewayException(503, ErrorKind.UNAVAILABLE, "Vendor '" + req.endpoint().vendor().id()
                + "' failed every recent request; the gateway stops calling it for " + seconds + " s (circuit open).",
                null, TransportFailures.CIRCUIT_OPEN, Map.of("retry-after", Long.toString(seconds)));
    }

    static long elapsedMs(RoutingContext ctx) {
        return (System.nanoTime() - Exchange.of(ctx).startNanos()) / 1_000_000;
    }

    /**
     * Copies one upstream SSE response to the caller with backpressure. Until its first byte is written,
     * any failure fails the attempt (which may then be retried); afterwards it ends the stream with an
     * error event.
     */
    private static final class StreamPump {
        private final RoutingContext ctx;
        private final HttpClientResponse upstream;
        private final StreamTap tap;
        private final String vendor;
        private final InFlight call;
        private final HttpServerResponse out;
        private final Promise<RelayOutcome> done = Promise.promise();
        private Buffer pending = Buffer.buffer(512);
        private Long ttftMs;
        private long silenceTimer = -1;
        private long lastEventNanos;

        StreamPump(RoutingContext ctx, HttpClientResponse upstream, StreamTap tap, String vendor, InFlight call) {
            this.ctx = ctx;
            this.upstream = upstream;
            this.tap = tap;
            this.vendor = vendor;
            this.call = call;
            this.out = ctx.response();
        }

        Future<RelayOutcome> run() {
            SseParser parser = new SseParser(event -> tap.onEvent(event, pending));
            lastEventNanos = System.nanoTime();
            watchSilence();
            upstream.handler(chunk -> {
                lastEventNanos = System.nanoTime();
                parser.feed(chunk);
                if (ttftMs == null && tap.failed()) {
                    // The vendor failed before anything reached the caller: nothing is lost by trying again.
                    // Failing before the reset keeps this reason rather than the reset's own.
                    done.tryFail(GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor
                            + "' sent an error event before any output reached the caller."));
                    upstream.request().reset();
                    return;
                }
                flush();
            });
            upstream.endHandler(v -> {
                if (done.future().isComplete()) return;
                parser.end();
                tap.onUpstreamEnd(pending);
                if (!tap.complete()) {
                    GatewayException cut = GatewayException.of(ErrorKind.UPSTREAM,
                            "Vendor '" + vendor + "' ended the stream before it was complete.");
                    if (ttftMs == null) {
                        done.tryFail(cut);
                        return;
                    }
                    tap.appendError(cut, pending);
                }
                finish();
            });
            upstream.exceptionHandler(t -> {
                if (done.future().isComplete()) return;
                if (ttftMs == null) {
                    done.tryFail(call.failure(t));
                    return;
                }
                if (!tap.complete()) tap.appendError(TransportFailures.classify(t, vendor), pending);
                finish();
            });
            out.closeHandler(v -> {
                // Over HTTP/2 the stream's normal end closes it too: only an unfinished response means the caller left.
                if (out.ended()) return;
                upstream.request().reset();
                done.tryComplete(new RelayOutcome(499, tap.usage(), ttftMs, true));
            });
            return done.future().andThen(ar -> ctx.vertx().cancelTimer(silenceTimer));
        }

        /**
         * Vert.x's idle timeout stops at the response head, so the silence between two upstream events is
         * watched here: past the limit, the upstream call is reset and the stream fails. Events only stamp
         * the time they arrived; one timer at a time checks the stamp, so a busy stream creates no timers.
         */
        private void watchSilence() {
            long idleMs = call.idleMs();
            long quietMs = (System.nanoTime() - lastEventNanos) / 1_000_000;
            silenceTimer = ctx.vertx().setTimer(Math.max(1, idleMs - quietMs), id -> {
                if (done.future().isComplete()) return;
                if ((System.nanoTime() - lastEventNanos) / 1_000_000 < idleMs) {
                    watchSilence();
                    return;
                }
                GatewayException silent = new GatewayException(504, ErrorKind.TIMEOUT, "Vendor '" + vendor
                        + "' sent nothing for " + idleMs + " ms.", null, "idle_timeout", null);
                if (ttftMs == null) {
                    done.tryFail(silent);
                } else {
                    if (!tap.complete()) tap.appendError(silent, pending);
                    finish();
                }
                upstream.request().reset();
            });
        }

        private void flush() {
            if (pending.length() == 0 || out.closed() || done.future().isComplete()) return;
            if (ttftMs == null) {
                ttftMs = elapsedMs(ctx);
                call.committed();
                out.setChunked(true)
                        .putHeader("content-type", "text/event-stream; charset=utf-8")
                        .putHeader("cache-control", "no-cache");
            }
            out.write(pending);
            pending = Buffer.buffer(512);
            if (out.writeQueueFull()) {
                upstream.pause();
                out.drainHandler(v -> upstream.resume());
            }
        }

        private void finish() {
            flush();
            if (!out.closed()) out.end();
            int status = tap.failed() ? 502 : 200;
            done.tryComplete(new RelayOutcome(status, tap.usage(), ttftMs, tap.failed()));
        }
    }
}
