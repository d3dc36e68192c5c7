package dev.modelgateway.upstream;

import dev.modelgateway.config.VendorAnswerLimits;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.sse.SseParser;
import dev.modelgateway.wire.StreamTap;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;

/**
 * Copies one upstream SSE response to the caller with backpressure. Until its first byte is written,
 * any failure fails the attempt (which may then be retried); afterwards it ends the stream with an
 * error event. A shutdown's drain ends it the same way at its deadline.
 */
final class StreamPump {
    private final Exchange ex;
    private final HttpClientResponse upstream;
    private final StreamTap tap;
    private final String vendor;
    private final InFlight<RelayOutcome> call;
    private final HttpServerResponse out;
    private final Promise<RelayOutcome> done = Promise.promise();
    /** What the caller gets next: the frames of the upstream reads since the last flush. */
    private final RelayedFrames frames = new RelayedFrames();
    private Long ttftMs;
    private final VendorAnswerLimits limits;
    private long silenceTimer = -1;
    private long lifeTimer = -1;
    private long lastEventNanos;
    /** Bytes received since the last complete event: what the SSE parser is holding. */
    private long sinceEvent;

    private final StreamFraming framing;

    StreamPump(Exchange ex, HttpClientResponse upstream, StreamTap tap, String vendor, InFlight<RelayOutcome> call,
               VendorAnswerLimits limits) {
        this(ex, upstream, tap, vendor, call, limits, StreamFraming.SSE);
    }

    StreamPump(Exchange ex, HttpClientResponse upstream, StreamTap tap, String vendor, InFlight<RelayOutcome> call,
               VendorAnswerLimits limits, StreamFraming framing) {
        this.framing = framing;
        this.ex = ex;
        this.limits = limits;
        this.upstream = upstream;
        this.tap = tap;
        this.vendor = vendor;
        this.call = call;
        this.out = ex.response();
    }

    Future<RelayOutcome> run() {
        SseParser parser = new SseParser(event -> {
            sinceEvent = 0;
            tap.onEvent(event, frames);
        });
        lastEventNanos = System.nanoTime();
        call.relayedBy(this::stop);
        watchSilence();
        lifeTimer = ex.vertx().setTimer(limits.maxStreamMs(), id -> stop(GatewayException.of(ErrorKind.TIMEOUT,
                "Vendor '" + vendor + "' streamed for longer than the gateway's limit of " + limits.maxStreamSeconds()
                        + " s (server.max_vendor_stream_seconds).").withCode("stream_too_long")));
        upstream.handler(read -> {
            if (done.future().isComplete()) return;
            Buffer chunk;
            try {
                chunk = framing.toSse(read);
            } catch (GatewayException failure) {
                // an AWS exception frame: before any output, the attempt fails (and may fail over); after, the
                // caller's stream ends with its protocol's error event
                stop(failure);
                return;
            }
            lastEventNanos = System.nanoTime();
            sinceEvent += chunk.length();
            frames.read(chunk);
            parser.feed(chunk);
            if (sinceEvent > limits.maxEventBytes()) {
                // an event that never ends would grow the parser's line buffer without bound
                stop(GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor + "' sent an event larger than the"
                        + " gateway's limit of " + limits.maxEventBytes() + " bytes (server.max_vendor_event_bytes).").withCode("upstream_event_too_large"));
                return;
            }
            if (ttftMs == null && tap.failed()) {
                // The vendor failed before anything reached the caller: nothing is lost by trying again.
                // Failing before the reset keeps this reason rather than the reset's own.
                done.tryFail(GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor
                        + "' sent an error event before any output reached the caller."));
                upstream.request().reset();
                return;
            }
            flush();
            // an AWS exception frame behind events in the same read: those went out first, now the failure
            GatewayException failed = framing.pending();
            if (failed != null) stop(failed);
        });
        upstream.endHandler(v -> {
            if (done.future().isComplete()) return;
            frames.noRead();
            parser.end();
            tap.onUpstreamEnd(frames.buffer());
            if (!tap.complete()) {
                GatewayException cut = GatewayException.of(ErrorKind.UPSTREAM,
                        "Vendor '" + vendor + "' ended the stream before it was complete.");
                if (ttftMs == null) {
                    done.tryFail(cut);
                    return;
                }
                tap.appendError(cut, frames.buffer());
            }
            finish();
        });
        upstream.exceptionHandler(t -> {
            if (done.future().isComplete()) return;
            if (ttftMs == null) {
                done.tryFail(call.failure(t));
                return;
            }
            if (!tap.complete()) tap.appendError(TransportFailures.classify(t, vendor), frames.buffer());
            finish();
        });
        out.closeHandler(v -> {
            // Over HTTP/2 the stream's normal end closes it too: only an unfinished response means the caller left.
            if (out.ended()) return;
            // Complete first: the reset runs the upstream exception handler at once, which would end the
            // stream as the vendor's failure (502) and tell the breaker the deployment failed.
            done.tryComplete(new RelayOutcome.CallerLeft(tap.usage(), ttftMs, tap.unbilled()));
            upstream.request().reset();
        });
        return done.future().andThen(ar -> {
            ex.vertx().cancelTimer(silenceTimer);
            ex.vertx().cancelTimer(lifeTimer);
        });
    }

    /**
     * Ends the stream for a limit the vendor passed, or at the drain's deadline: the attempt fails while nothing
     * reached the caller, else the caller's stream ends with the protocol's error event; the upstream call is reset
     * either way.
     */
    private void stop(GatewayException reason) {
        if (done.future().isComplete()) return;
        if (ttftMs == null) {
            done.tryFail(reason);
        } else {
            if (!tap.complete()) tap.appendError(reason, frames.buffer());
            finish();
        }
        upstream.request().reset();
    }

    /**
     * Vert.x's idle timeout stops at the response head, so the silence between two upstream events is
     * watched here: past the limit, the upstream call is reset and the stream fails. Events only stamp
     * the time they arrived; one timer at a time checks the stamp, so a busy stream creates no timers.
     */
    private void watchSilence() {
        long idleMs = call.idleMs();
        long quietMs = (System.nanoTime() - lastEventNanos) / 1_000_000;
        silenceTimer = ex.vertx().setTimer(Math.max(1, idleMs - quietMs), id -> {
            if (done.future().isComplete()) return;
            if ((System.nanoTime() - lastEventNanos) / 1_000_000 < idleMs) {
                watchSilence();
                return;
            }
            GatewayException silent = GatewayException.of(ErrorKind.TIMEOUT, "Vendor '" + vendor
                    + "' sent nothing for " + idleMs + " ms.").withCode("idle_timeout");
            if (ttftMs == null) {
                done.tryFail(silent);
            } else {
                if (!tap.complete()) tap.appendError(silent, frames.buffer());
                finish();
            }
            upstream.request().reset();
        });
    }

    private void flush() {
        if (out.closed() || done.future().isComplete()) return;
        Buffer next = frames.take();
        if (next == null || next.length() == 0) return;
        if (ttftMs == null) {
            ttftMs = ex.elapsedMs();
            call.committed();
            out.setChunked(true)
                    .putHeader("content-type", "text/event-stream; charset=utf-8")
                    .putHeader("cache-control", "no-cache");
        }
        out.write(next);
        if (out.writeQueueFull()) {
            upstream.pause();
            out.drainHandler(v -> upstream.resume());
        }
    }

    private void finish() {
        flush();
        RelayOutcome outcome = !tap.failed() ? new RelayOutcome.Answered(200, tap.usage(), ttftMs)
                : call.shutDown() != null ? new RelayOutcome.ShutDown(tap.usage(), ttftMs, tap.unbilled())
                : new RelayOutcome.CutOff(tap.usage(), ttftMs, tap.unbilled());
        if (!out.closed()) {
            // a cut stream's row waits for its estimate (docs/accounts.md, "A stream cut before its usage"): it is
            // written after the end
            if (outcome instanceof RelayOutcome.Answered) ex.answerEnding(outcome.status(), outcome.usage(), ttftMs);
            out.end();
        }
        done.tryComplete(outcome);
    }
}
