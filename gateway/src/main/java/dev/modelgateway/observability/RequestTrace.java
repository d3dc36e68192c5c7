package dev.modelgateway.observability;

import dev.modelgateway.canonical.Usage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One request's observability (one per request; its event loop reports to it, and the few state changes are
 * synchronized in case a completion arrives on another thread): its trace id (the caller's W3C
 * {@code traceparent}'s, else a new one), its server span when tracing is on, the current upstream attempt, and the
 * facts of its call. It ends when both the response has ended and the call (if any) has its ledger record, so that the
 * access log line, the server span and the metrics see the same tokens, TTFT and cost.
 */
public final class RequestTrace {
    /** Custom attributes taken from one request, and the longest value kept. */
    static final int MAX_CUSTOM_ATTRIBUTES = 16;
    static final int MAX_ATTRIBUTE_CHARS = 256;
    /** Captured content is cut here (GenAI conventions: content may be truncated). */
    static final int MAX_CONTENT_CHARS = 16 * 1024;
    /**
     * The namespaces of the attributes the gateway sets, and the conventions' others a caller has no business setting
     * (a custom attribute of one of them is dropped): {@code client.address}, {@code gateway.key_id},
     * {@code gateway.cost_usd}, {@code gen_ai.*} usage…
     */
    static final List<String> RESERVED = List.of("http.", "url.", "client.", "server.", "network.", "user_agent.",
            "gateway.", "gen_ai.", "error.", "exception.", "otel.", "service.", "telemetry.");

    private static final TextMapGetter<HttpServerRequest> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServerRequest carrier) {
            return carrier.headers().names();
        }

        @Override
        public String get(HttpServerRequest carrier, String key) {
            return carrier == null ? null : carrier.getHeader(key);
        }
    };
    private static final TextMapSetter<MultiMap> UPSTREAM = (carrier, key, value) -> {
        if (carrier != null) carrier.set(key, value);
    };

    private final Telemetry telemetry;
    private final long startNanos = System.nanoTime();
    private final String method;
    private final String path;
    private final String protocol;
    private final String traceId;
    /** The caller's trace context, passed on unchanged when no span of ours is there to continue it. */
    private final String callerParent;
    private final String callerState;
    private final Span server;
    private AttemptSpan attempt = AttemptSpan.NONE;
    private CallFacts facts;
    private String keyId;
    private boolean callOpen;
    private boolean responseEnded;
    private boolean finished;
    private Runnable onFinish = () -> { };
    private int status;
    private String route;

    private RequestTrace(Telemetry telemetry, String method, String path, String protocol, String traceId,
                         String callerParent, String callerState, Span server) {
        this.telemetry = telemetry;
        this.method = method;
        this.path = path;
        this.protocol = protocol;
        this.traceId = traceId;
        this.callerParent = callerParent;
        this.callerState = callerState;
        this.server = server;
    }

    /** A request's trace; with tracing off only a valid {@code traceparent} is read (for its trace id). */
    static RequestTrace begin(Telemetry telemetry, HttpServerRequest req, String protocol) {
        String method = HttpMethods.known(req.method().name());
        String path = req.path();
        Tracing tracing = telemetry.tracing();
        if (tracing == null) {
            String parent = req.getHeader(TraceParent.HEADER);
            String callerTrace = TraceParent.traceId(parent);
            return new RequestTrace(telemetry, method, path, protocol, callerTrace,
                    callerTrace == null ? null : parent, callerTrace == null ? null : req.getHeader(TraceParent.STATE_HEADER), null);
        }
        Context parent = tracing.propagator().extract(Context.root(), req, HEADERS);
        SpanBuilder b = tracing.tracer().spanBuilder(spanName(method))
                .setParent(parent)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute("http.request.method", method)
                .setAttribute("url.path", path)
                .setAttribute("url.scheme", req.isSSL() ? "https" : "http")
                .setAttribute("network.protocol.version", networkVersion(req))
                .setAttribute("gateway.protocol", protocol);
        if (method.equals(HttpMethods.OTHER)) {
            b.setAttribute("http.request.method_original", truncate(req.method().name(), MAX_ATTRIBUTE_CHARS));
        }
        String agent = req.getHeader("user-agent");
        if (agent != null) b.setAttribute("user_agent.original", truncate(agent, MAX_ATTRIBUTE_CHARS));
        if (req.remoteAddress() != null && req.remoteAddress().hostAddress() != null) {
            b.setAttribute("client.address", req.remoteAddress().hostAddress());
        }
        customAttributes(b, req, telemetry.config().attributePrefix());
        Span span = b.startSpan();
        return new RequestTrace(telemetry, method, path, protocol, span.getSpanContext().getTraceId(), null, null, span);
    }

    /** The trace of an exchange that did not come through the router (tests, internal calls): records nothing read. */
    public static RequestTrace detached() {
        return new RequestTrace(Telemetry.OFF, "-", "-", "-", null, null, null, null);
    }

    /** HTTP conventions: a span of an unknown method is named {@code HTTP}, not {@value HttpMethods#OTHER}. */
    private static String spanName(String method) {
        return method.equals(HttpMethods.OTHER) ? "HTTP" : method;
    }

    private static String networkVersion(HttpServerRequest req) {
        return switch (req.version()) {
            case HTTP_2 -> "2";
            case HTTP_1_0 -> "1.0";
            default -> "1.1";
        };
    }

    /**
     * Headers named {@code <prefix><name>} become the attribute {@code <name>} (bounded in number and length), unless
     * {@code <name>} is in a namespace the gateway or the conventions own ({@link #RESERVED}): a caller must not set
     * the {@code client.address}, key id or cost the operator reads.
     */
    private static void customAttributes(SpanBuilder b, HttpServerRequest req, String prefix) {
        if (prefix == null) return;
        int n = 0;
        for (Map.Entry<String, String> h : req.headers()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (!name.startsWith(prefix) || name.length() == prefix.length()) continue;
            String attribute = name.substring(prefix.length());
            if (reserved(attribute)) continue;
            if (++n > MAX_CUSTOM_ATTRIBUTES) break;
            b.setAttribute(attribute, truncate(Redaction.scrub(h.getValue()), MAX_ATTRIBUTE_CHARS));
        }
    }

    private static boolean reserved(String attribute) {
        for (String namespace : RESERVED) if (attribute.startsWith(namespace)) return true;
        return false;
    }

    /** The trace id of the caller's {@code traceparent} or of the server span; null when neither (a new one is made). */
    public String traceId() {
        return traceId;
    }

    /** The server span's id, null when tracing is off. */
    public String spanId() {
        return server == null ? null : server.getSpanContext().getSpanId();
    }

    public String path() {
        return path;
    }

    /**
     * Opens the span of one upstream attempt; its context is what {@link #inject} sends upstream until the next.
     *
     * @param provider   the provider type ({@code openai}, {@code azure-openai}, {@code anthropic}…)
     * @param deployment the deployment's id (its unit of health)
     */
    public AttemptSpan attempt(String provider, String deployment, String publicModel, String upstreamModel, int attempt,
                               int fallback, int resend) {
        Tracing tracing = telemetry.tracing();
        if (tracing == null || server == null) return AttemptSpan.NONE;
        this.attempt = AttemptSpan.start(tracing, Context.root().with(server), GenAi.operation(path), provider, deployment,
                publicModel, upstreamModel, attempt, fallback, resend);
        return this.attempt;
    }

    /** Puts the trace context on an upstream request: the current attempt's, or the caller's when tracing is off. */
    public void inject(MultiMap headers) {
        Context context = attempt.context();
        if (context == null && server != null) context = Context.root().with(server);
        if (context != null) {
            telemetry.tracing().propagator().inject(context, headers, UPSTREAM);
        } else if (callerParent != null) {
            headers.set(TraceParent.HEADER, callerParent);
            if (callerState != null) headers.set(TraceParent.STATE_HEADER, callerState);
        }
    }

    /**
     * Opt-in content capture ({@link ObservabilityConfig#captureContent()}): the caller's messages on the server span
     * as {@code gen_ai.input.messages}, credentials redacted, cut at {@value #MAX_CONTENT_CHARS} characters.
     */
    public void captureInput(Supplier<String> messages) {
        if (server == null || !telemetry.config().captureContent() || !server.isRecording()) return;
        String json = messages.get();
        if (json != null) server.setAttribute(GenAi.INPUT_MESSAGES, truncate(Redaction.scrub(json), MAX_CONTENT_CHARS));
    }

    /**
     * A call was admitted or is being admitted: the request ends once its record is in ({@link #recorded}) or it was
     * handed off ({@link #callHandedOff}); every admission must come to one of them.
     */
    public synchronized void callStarted() {
        if (!finished) callOpen = true;
    }

    /** A retry or a fallback follows a failed attempt. */
    public void retried(String kind, String vendor, String model, String reason) {
        telemetry.metrics().retried(kind, vendor, model, reason);
    }

    /** A call refused at admission, by its error code. */
    public void refused(String reason) {
        telemetry.metrics().refused(reason);
    }

    /** The call's record, as the ledger has it: counted now; the request ends if its response has. */
    public void recorded(CallFacts call, String key) {
        telemetry.metrics().call(path, protocol, call);
        synchronized (this) {
            this.facts = call;
            this.keyId = key;
            callOpen = false;
            finishIfDone();
        }
    }

    /**
     * A call admitted by this request whose record is written elsewhere (a transcription task records its own usage
     * when it finishes): the request need not wait for it.
     */
    public synchronized void callHandedOff() {
        callOpen = false;
        finishIfDone();
    }

    /** Run once when the request ends (the access log line). */
    public void onFinish(Runnable r) {
        this.onFinish = r;
    }

    /** The response ended (or the connection closed) with {@code status}; {@code route} the matched route's pattern. */
    public synchronized void responseEnded(int status, String route) {
        if (responseEnded) return;
        this.responseEnded = true;
        this.status = status;
        this.route = route;
        finishIfDone();
    }

    private synchronized void finishIfDone() {
        if (finished || !responseEnded || callOpen) return;
        finished = true;
        telemetry.metrics().request(method, route, status, System.nanoTime() - startNanos);
        if (server != null) endServerSpan();
        onFinish.run();
    }

    private void endServerSpan() {
        server.updateName(spanName(method) + " " + route);
        server.setAttribute(GenAi.HTTP_ROUTE, route);
        server.setAttribute("http.response.status_code", status);
        if (status >= 500) {
            server.setAttribute(GenAi.ERROR_TYPE, Integer.toString(status));
            server.setStatus(StatusCode.ERROR);
        }
        if (keyId != null) server.setAttribute("gateway.key_id", keyId);
        if (facts != null) {
            server.setAttribute(GenAi.OPERATION, GenAi.operation(path));
            server.setAttribute(GenAi.PROVIDER, GenAi.provider(facts.vendor()));
            server.setAttribute(GenAi.REQUEST_MODEL, facts.requestedModel());
            if (facts.answeredModel() != null) server.setAttribute(GenAi.RESPONSE_MODEL, facts.answeredModel());
            server.setAttribute("gateway.attempts", facts.attempts());
            if (facts.ttftMs() != null) server.setAttribute("gateway.time_to_first_token_ms", facts.ttftMs());
            if (facts.costUsd() > 0) server.setAttribute("gateway.cost_usd", facts.costUsd());
            usage(server, facts.usage());
        }
        server.end();
    }

    /** GenAI usage attributes: input counts every input token, cached or not (the conventions' meaning). */
    static void usage(Span span, Usage u) {
        if (u == null) return;
        span.setAttribute(GenAi.INPUT_TOKENS, u.totalInputTokens());
        span.setAttribute(GenAi.OUTPUT_TOKENS, u.outputTokens());
        span.setAttribute(GenAi.CACHE_READ_TOKENS, u.cacheReadTokens());
        span.setAttribute(GenAi.CACHE_CREATION_TOKENS, u.cacheWriteTokens());
        if (u.reasoningTokens() > 0) span.setAttribute(GenAi.REASONING_TOKENS, u.reasoningTokens());
    }

    /** The call's facts (null for a request that made no call). */
    public CallFacts facts() {
        return facts;
    }

    public String route() {
        return route;
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

}
