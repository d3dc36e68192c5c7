package dev.modelgateway.sim;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.util.ArrayList;
import java.util.List;

/**
 * One request/response in flight. Applies the transport faults of the effective directive (delay, chunk
 * delay, disconnect, mid-stream error, malformed payload, retry headers) and records whether the client went
 * away before the simulator finished. Everything runs on the event loop; waits use Vert.x timers.
 */
final class Exchange {

    /** Renders this vendor's error body for a status; {@code message} may be null for a stock message. */
    interface ErrorRenderer {
        String render(int status, String message, String code);
    }

    static final String SSE = "text/event-stream; charset=utf-8";
    static final String JSON = "application/json";

    final Vertx vertx;
    final HttpServerRequest req;
    final HttpServerResponse res;
    final RequestLog.Entry entry;
    final String vendor;
    Directive directive = Directive.NONE;
    ErrorRenderer errors;
    private boolean done; // we ended the response or dropped the connection on purpose

    Exchange(Vertx vertx, HttpServerRequest req, RequestLog.Entry entry, String vendor, ErrorRenderer errors) {
        this.vertx = vertx;
        this.req = req;
        this.res = req.response();
        this.entry = entry;
        this.vendor = vendor;
        this.errors = errors;
        res.closeHandler(v -> {
            if (!done) entry.clientClosedEarly = true;
        });
        res.exceptionHandler(t -> {
            if (!done) entry.clientClosedEarly = true;
        });
    }

    void header(String name, String value) {
        res.putHeader(name, value);
    }

    /** Vendor error with the vendor's own body. Subject to delay and retry headers, never to malformed. */
    void fail(int status, String message, String code) {
        String body = errors.render(status, message, code);
        afterDelay(() -> finish(status, JSON, body));
    }

    /** OpenAI's 400 for a bad parameter, which names it in {@code error.param}. */
    void failOpenAiParam(ParamRanges.Refusal r) {
        failOpenAi(400, r);
    }

    /** An OpenAI error whose {@code param} and {@code code} are given as they are (either may be null). */
    void failOpenAi(int status, ParamRanges.Refusal r) {
        String body = VendorErrors.openaiParam(r.message(), r.param(), r.code());
        afterDelay(() -> finish(status, JSON, body));
    }

    /** Successful JSON body; honours malformed and (non-streaming) disconnect_after. */
    void ok(String json) {
        afterDelay(() -> {
            if (directive.disconnectAfter() >= 0) {
                drop();
                return;
            }
            String body = directive.malformed() ? json.substring(0, Math.max(1, json.length() / 2)) + "<<malformed" : json;
            finish(200, JSON, body);
        });
    }

    /** Any non-JSON payload (images, audio) with a chosen content type. */
    void raw(int status, String contentType, Buffer body) {
        afterDelay(() -> {
            applyRetryHeaders();
            done = true;
            res.setStatusCode(status).putHeader("content-type", contentType).end(body);
        });
    }

    /**
     * Streams pre-framed SSE events. {@code malformedEvent} replaces the second event under {@code malformed};
     * {@code errorEvent} follows the first N events under {@code error_after=N}.
     */
    void stream(String contentType, List<String> events, String errorEvent, String malformedEvent) {
        afterDelay(() -> {
            Directive d = directive;
            List<String> plan = events;
            boolean dropAtEnd = false;
            if (d.malformed() && plan.size() > 1) {
                plan = new ArrayList<>(plan);
                plan.set(1, malformedEvent);
            }
            int keep = plan.size() - 1; // never include the terminal event when cutting a stream short
            if (d.errorAfter() >= 0) {
                plan = new ArrayList<>(plan.subList(0, Math.max(0, Math.min(d.errorAfter(), keep))));
                plan.add(errorEvent);
            } else if (d.disconnectAfter() >= 0) {
                plan = plan.subList(0, Math.max(0, Math.min(d.disconnectAfter(), keep)));
                dropAtEnd = true;
            }
            applyRetryHeaders();
            res.setStatusCode(200).putHeader("content-type", contentType).putHeader("cache-control", "no-cache")
                    .setChunked(true);
            if (d.chunkDelayMs() <= 0) {
                StringBuilder sb = new StringBuilder(plan.size() * 160);
                for (String e : plan) sb.append(e);
                if (!sb.isEmpty()) res.write(sb.toString());
                else res.writeHead();
                complete(dropAtEnd);
            } else {
                res.writeHead();
                pace(plan, 0, d.chunkDelayMs(), dropAtEnd);
            }
        });
    }

    /**
     * Streams binary chunks (audio) with chunked transfer; honours chunk_delay_ms and disconnect_after
     * (which counts chunks and drops the connection instead of finishing).
     */
    void binary(String contentType, List<Buffer> chunks) {
        afterDelay(() -> {
            Directive d = directive;
            List<Buffer> plan = chunks;
            boolean drop = d.disconnectAfter() >= 0;
            if (drop) plan = plan.subList(0, Math.max(0, Math.min(d.disconnectAfter(), plan.size() - 1)));
            res.setStatusCode(200).putHeader("content-type", contentType).setChunked(true);
            if (d.chunkDelayMs() <= 0) {
                res.writeHead();
                for (Buffer b : plan) res.write(b);
                complete(drop);
            } else {
                res.writeHead();
                pace(plan, 0, d.chunkDelayMs(), drop);
            }
        });
    }

    private void pace(List<?> plan, int i, long delay, boolean dropAtEnd) {
        if (res.closed()) return;
        if (i >= plan.size()) {
            complete(dropAtEnd);
            return;
        }
        if (plan.get(i) instanceof Buffer b) res.write(b);
        else res.write((String) plan.get(i));
        if (i + 1 >= plan.size()) {
            complete(dropAtEnd);
            return;
        }
        vertx.setTimer(delay, id -> pace(plan, i + 1, delay, dropAtEnd));
    }

    private void complete(boolean drop) {
        if (drop) drop();
        else {
            done = true;
            res.end();
        }
    }

    /** Closes the TCP connection without (finishing) a response. */
    void drop() {
        done = true;
        req.connection().close();
    }

    private void finish(int status, String contentType, String body) {
        applyRetryHeaders();
        done = true;
        res.setStatusCode(status).putHeader("content-type", contentType).end(body);
    }

    private void applyRetryHeaders() {
        if (directive.retryAfter() >= 0) res.putHeader("retry-after", Long.toString(directive.retryAfter()));
        if (directive.retryAfterMs() >= 0) res.putHeader("retry-after-ms", Long.toString(directive.retryAfterMs()));
    }

    private void afterDelay(Runnable action) {
        long delay = directive.delayMs();
        if (delay <= 0) {
            action.run();
            return;
        }
        vertx.setTimer(delay, id -> {
            if (!res.closed()) action.run();
        });
    }
}
