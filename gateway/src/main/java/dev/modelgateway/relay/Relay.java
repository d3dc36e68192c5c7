package dev.modelgateway.relay;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.server.Exchange;
import dev.modelgateway.sse.SseParser;
import dev.modelgateway.upstream.UpstreamRequest;
import dev.modelgateway.upstream.VendorClients;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * Sends one upstream request and relays its answer to the caller: a JSON body through a
 * {@link JsonAnswer} (unchanged on the native path, re-encoded on the translated one), or an SSE stream
 * through a {@link StreamTap}, frame by frame as it arrives, with backpressure.
 *
 * <p>Both methods fail without writing anything for a non-2xx answer ({@link UpstreamError}, or what
 * {@code errors} makes of it) and for transport failures ({@link GatewayException}), so that the caller
 * may retry or fall back. Once the first byte is written, failures end the stream with the protocol's
 * own error event instead.
 */
public final class Relay {
    private final VendorClients clients;

    public Relay(VendorClients clients) {
        this.clients = clients;
    }

    public Future<RelayOutcome> json(RoutingContext ctx, UpstreamRequest req, JsonAnswer answer, UpstreamErrorMapper errors) {
        String vendor = req.endpoint().vendor().id();
        return clients.send(req, upstream -> cancelWhenCallerLeaves(ctx, upstream))
                .recover(t -> Future.failedFuture(UpstreamFailures.classify(t, vendor)))
                .compose(resp -> resp.body()
                        .recover(t -> Future.failedFuture(UpstreamFailures.classify(t, vendor)))
                        .compose(body -> {
                            if (resp.statusCode() / 100 != 2) {
                                return Future.failedFuture(errors.map(new UpstreamError(resp.statusCode(), resp.headers(), body)));
                            }
                            JsonAnswer.Answer a = answer.answer(body);
                            HttpServerResponse out = ctx.response();
                            if (out.closed()) return Future.succeededFuture(new RelayOutcome(499, a.usage(), null, false));
                            out.setStatusCode(200).putHeader("content-type", "application/json").end(a.body());
                            return Future.succeededFuture(new RelayOutcome(200, a.usage(), elapsedMs(ctx), false));
                        }));
    }

    public Future<RelayOutcome> stream(RoutingContext ctx, UpstreamRequest req, StreamTap tap, UpstreamErrorMapper errors) {
        String vendor = req.endpoint().vendor().id();
        return clients.send(req, upstream -> cancelWhenCallerLeaves(ctx, upstream))
                .recover(t -> Future.failedFuture(UpstreamFailures.classify(t, vendor)))
                .compose(resp -> {
                    if (resp.statusCode() / 100 != 2) {
                        return resp.body()
                                .recover(t -> Future.succeededFuture(Buffer.buffer()))
                                .compose(body -> Future.failedFuture(errors.map(new UpstreamError(resp.statusCode(), resp.headers(), body))));
                    }
                    return new StreamPump(ctx, resp, tap, vendor).run();
                });
    }

    /**
     * Relays a binary answer (audio) chunk by chunk as the vendor sends it, with backpressure and the vendor's
     * content type; {@code usage} is known before the call (the body carries none).
     */
    public Future<RelayOutcome> bytes(RoutingContext ctx, UpstreamRequest req, dev.modelgateway.canonical.Usage usage,
                                      UpstreamErrorMapper errors) {
        String vendor = req.endpoint().vendor().id();
        return clients.send(req, upstream -> cancelWhenCallerLeaves(ctx, upstream))
                .recover(t -> Future.failedFuture(UpstreamFailures.classify(t, vendor)))
                .compose(resp -> {
                    if (resp.statusCode() / 100 != 2) {
                        return resp.body()
                                .recover(t -> Future.succeededFuture(Buffer.buffer()))
                                .compose(body -> Future.failedFuture(errors.map(new UpstreamError(resp.statusCode(), resp.headers(), body))));
                    }
                    HttpServerResponse out = ctx.response().setChunked(true);
                    String type = resp.getHeader("content-type");
                    out.putHeader("content-type", type != null ? type : "application/octet-stream");
                    Long ttft = elapsedMs(ctx);
                    return resp.pipeTo(out).transform(ar -> Future.succeededFuture(
                            ar.succeeded() ? new RelayOutcome(200, usage, ttft, false) : new RelayOutcome(502, usage, ttft, true)));
                });
    }

    private static void cancelWhenCallerLeaves(RoutingContext ctx, HttpClientRequest upstream) {
        ctx.response().closeHandler(v -> upstream.reset());
        if (ctx.response().closed()) upstream.reset();
    }

    static long elapsedMs(RoutingContext ctx) {
        return (System.nanoTime() - Exchange.of(ctx).startNanos()) / 1_000_000;
    }

    /** Copies one upstream SSE response to the caller with backpressure, ending with an error event if cut. */
    private static final class StreamPump {
        private final RoutingContext ctx;
        private final HttpClientResponse upstream;
        private final StreamTap tap;
        private final String vendor;
        private final HttpServerResponse out;
        private final Promise<RelayOutcome> done = Promise.promise();
        private Buffer pending = Buffer.buffer(512);
        private Long ttftMs;

        StreamPump(RoutingContext ctx, HttpClientResponse upstream, StreamTap tap, String vendor) {
            this.ctx = ctx;
            this.upstream = upstream;
            this.tap = tap;
            this.vendor = vendor;
            this.out = ctx.response();
        }

        Future<RelayOutcome> run() {
            SseParser parser = new SseParser(event -> tap.onEvent(event, pending));
            out.setChunked(true)
                    .putHeader("content-type", "text/event-stream; charset=utf-8")
                    .putHeader("cache-control", "no-cache");
            upstream.handler(chunk -> {
                parser.feed(chunk);
                flush();
            });
            upstream.endHandler(v -> {
                parser.end();
                tap.onUpstreamEnd(pending);
                if (!tap.complete()) {
                    tap.appendError(GatewayException.of(ErrorKind.UPSTREAM,
                            "Vendor '" + vendor + "' ended the stream before it was complete."), pending);
                }
                finish();
            });
            upstream.exceptionHandler(t -> {
                if (done.future().isComplete()) return;
                if (!tap.complete()) tap.appendError(UpstreamFailures.classify(t, vendor), pending);
                finish();
            });
            out.closeHandler(v -> {
                upstream.request().reset();
                done.tryComplete(new RelayOutcome(499, tap.usage(), ttftMs, true));
            });
            return done.future();
        }

        private void flush() {
            if (pending.length() == 0 || out.closed()) return;
            if (ttftMs == null) ttftMs = elapsedMs(ctx);
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
