package dev.modelgateway.http;

import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/** Per-request facts every handler needs, kept on the routing context. */
public final class Exchange {
    private static final String KEY = "exchange";

    private final String traceId;
    private final ErrorShape protocol;
    private final long startNanos;
    private Caller caller;
    private String model;

    private Exchange(String traceId, ErrorShape protocol, long startNanos) {
        this.traceId = traceId;
        this.protocol = protocol;
        this.startNanos = startNanos;
    }

    public static Exchange begin(RoutingContext ctx, ErrorShape protocol) {
        Exchange ex = new Exchange(TraceId.next(), protocol, System.nanoTime());
        ctx.put(KEY, ex);
        return ex;
    }

    public static Exchange of(RoutingContext ctx) {
        return ctx.get(KEY);
    }

    public String traceId() { return traceId; }
    public ErrorShape protocol() { return protocol; }
    public long startNanos() { return startNanos; }
    public Caller caller() { return caller; }
    public void caller(Caller caller) { this.caller = caller; }
    public String model() { return model; }
    public void model(String model) { this.model = model; }

    /** Sends an error in the caller's protocol shape, unless the response has already begun. */
    public static void fail(RoutingContext ctx, GatewayException e) {
        HttpServerResponse resp = ctx.response();
        if (resp.headWritten() || resp.closed()) return;
        Exchange ex = of(ctx);
        ErrorShape protocol = ex != null ? ex.protocol : ErrorShape.OPENAI;
        String traceId = ex != null ? ex.traceId : TraceId.next();
        e.headers().forEach(resp::putHeader);
        resp.setStatusCode(e.status())
                .putHeader("content-type", "application/json")
                .end(Json.toBuffer(protocol.errorBody(e, traceId)));
    }
}
