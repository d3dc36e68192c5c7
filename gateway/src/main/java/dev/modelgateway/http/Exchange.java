package dev.modelgateway.http;

import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.observability.ErrorBodies;
import dev.modelgateway.observability.RequestTrace;
import dev.modelgateway.observability.Telemetry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import dev.modelgateway.canonical.Usage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One caller request's facts, for everything below the router: trace id, error shape, start time, the
 * authenticated caller, the response and the event loop that owns it. The router opens it; the call runner,
 * the relay and the stream pump take it instead of the {@code RoutingContext}, so they run without a router.
 */
public final class Exchange {
    private static final String KEY = "exchange";
    /** Response header listing what the gateway dropped or changed in the request (docs/translation.md). */
    public static final String WARNINGS_HEADER = "x-platform-warnings";

    private final String traceId;
    private final ErrorShape shape;
    private final long startNanos;
    private final Vertx vertx;
    private final HttpServerResponse response;
    private final RequestTrace trace;
    private Caller caller;
    private String model;
    private final List<String> callWarnings = new ArrayList<>();
    private AnswerEnd answerEnd;
    private String errorCode;

    /** What runs just before a relayed answer's last bytes are sent. */
    @FunctionalInterface
    public interface AnswerEnd {
        void ending(int status, Usage usage, Long ttftMs);
    }

    private Exchange(String traceId, ErrorShape shape, long startNanos, Vertx vertx, HttpServerResponse response,
                     RequestTrace trace) {
        this.trace = trace;
        this.traceId = traceId;
        this.shape = shape;
        this.startNanos = startNanos;
        this.vertx = vertx;
        this.response = response;
    }

    /** Opens the exchange of a routed request and keeps it on the routing context. */
    public static Exchange begin(RoutingContext ctx, ErrorShape shape) {
        return begin(ctx, shape, Telemetry.OFF.begin(ctx.request(), shape.name()));
    }

    /**
     * Opens the exchange of a routed request under its trace: the trace id is the trace's (the caller's
     * {@code traceparent} or the server span's), a new one when it has none.
     */
    public static Exchange begin(RoutingContext ctx, ErrorShape shape, RequestTrace trace) {
        String id = trace.traceId() != null ? trace.traceId() : TraceId.next();
        Exchange ex = new Exchange(id, shape, System.nanoTime(), ctx.vertx(), ctx.response(), trace);
        ctx.put(KEY, ex);
        return ex;
    }

    /** An exchange for a response that did not come through the router (tests, internal calls). */
    public static Exchange open(Vertx vertx, HttpServerResponse response, ErrorShape shape) {
        return new Exchange(TraceId.next(), shape, System.nanoTime(), vertx, response, RequestTrace.detached());
    }

    public static Exchange of(RoutingContext ctx) {
        return ctx.get(KEY);
    }

    public String traceId() { return traceId; }
    public ErrorShape shape() { return shape; }
    public long startNanos() { return startNanos; }
    public Vertx vertx() { return vertx; }
    public HttpServerResponse response() { return response; }
    public Caller caller() { return caller; }
    /** The request's observability: trace context, attempt spans, the call's facts for metrics and the access log. */
    public RequestTrace trace() { return trace; }
    public void caller(Caller caller) { this.caller = caller; }
    public String model() { return model; }
    /** The code of the error the gateway answered ({@link #fail}: its code, else its kind), for the access log; else null. */
    public String errorCode() { return errorCode; }
    public void model(String model) { this.model = model; }

    /**
     * Sets what runs just before a successful relayed answer ends: the call's ledger row, journaled first, so that a
     * caller never holds a whole answer whose usage a killed process could lose (docs/accounts.md).
     */
    public void beforeAnswerEnds(AnswerEnd hook) {
        this.answerEnd = hook;
    }

    /** Called by the relay right before it ends a successful answer; runs the hook set, at most once. */
    public void answerEnding(int status, Usage usage, Long ttftMs) {
        AnswerEnd hook = answerEnd;
        answerEnd = null;
        if (hook != null) hook.ending(status, usage, ttftMs);
    }

    /** Milliseconds since the request arrived. */
    public long elapsedMs() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /** Warnings that hold for the whole call (e.g. a hosted tool dropped), sent whichever attempt answers. */
    public void warnCall(List<String> warnings) {
        callWarnings.addAll(warnings);
        warn(List.of());
    }

    /** Sets {@link #WARNINGS_HEADER} to the call's warnings and one attempt's, unless the head is written. */
    public void warn(List<String> attemptWarnings) {
        if (response.headWritten() || callWarnings.isEmpty() && attemptWarnings.isEmpty()) return;
        List<String> all = new ArrayList<>(callWarnings);
        all.addAll(attemptWarnings);
        // warnings may quote the caller's field names: no control character may reach a header
        response.putHeader(WARNINGS_HEADER, String.join("; ", all).replaceAll("\\p{Cntrl}", "?"));
    }

    /** Sends an error in the caller's protocol shape, unless the response has already begun. */
    public void fail(GatewayException e) {
        if (response.headWritten() || response.closed()) return;
        errorCode = e.code() != null ? e.code() : e.kind().name().toLowerCase(Locale.ROOT);
        e.headers().forEach(response::putHeader);
        response.setStatusCode(e.status())
                .putHeader("content-type", shape.contentType())
                .end(ErrorBodies.sent(e.status(), Json.toBuffer(shape.errorBody(e, traceId))));
    }

    /** {@link #fail(GatewayException)} for a routed request, also before its exchange was opened. */
    public static void fail(RoutingContext ctx, GatewayException e) {
        Exchange ex = of(ctx);
        (ex != null ? ex : begin(ctx, ErrorShape.OPENAI)).fail(e);
    }
}
