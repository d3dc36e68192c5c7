package dev.modelgateway.observability;

import dev.modelgateway.canonical.Usage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The gateway's Prometheus metrics (docs/observability.md, "Metrics"), in a Micrometer registry that renders the
 * Prometheus text format. Names are the OpenTelemetry conventions' where they exist ({@code gen_ai.server.request.duration}
 * becomes {@code gen_ai_server_request_duration_seconds}), {@code gateway_*} otherwise. Labels are bounded: routes,
 * protocols, public model ids of the catalogue, vendors, status classes, the HTTP server's status codes (which the gateway
 * chooses; {@code _OTHER} outside 100–599) and reasons from fixed sets; never a key id
 * or a trace id.
 */
public final class GatewayMetrics implements AutoCloseable {
    /** gen-ai-metrics: the buckets advised for {@code gen_ai.server.request.duration} and the client's duration. */
    private static final Duration[] DURATION_BUCKETS = seconds(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56,
            5.12, 10.24, 20.48, 40.96, 81.92);
    /** gen-ai-metrics: the buckets advised for {@code gen_ai.server.time_to_first_token}. */
    private static final Duration[] TTFT_BUCKETS = seconds(0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
            0.75, 1.0, 2.5, 5.0, 7.5, 10.0);
    /** gen-ai-metrics: the buckets advised for {@code gen_ai.client.token.usage}. */
    private static final double[] TOKEN_BUCKETS = {1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576,
            4194304, 16777216, 67108864};

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Set<String> gauged = ConcurrentHashMap.newKeySet();
    private final Map<CallKey, CallMeters> callMeters = new ConcurrentHashMap<>();
    private JvmGcMetrics gc;
    private boolean jvm;

    /**
     * Adds the JVM's and the process's own metrics (memory, GC, threads, classes, CPU, uptime). Called by the first
     * scrape, not at start-up: the binders and the management beans they read are some 150 classes to load.
     */
    synchronized void bindJvm() {
        if (jvm) return;
        jvm = true;
        new JvmMemoryMetrics().bindTo(registry);
        gc = new JvmGcMetrics();
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** The Prometheus text exposition of every metric, the JVM's included (bound on the first call). */
    public String scrape() {
        bindJvm();
        return registry.scrape();
    }

    /** One HTTP request, whatever its route (Prometheus: {@code http_server_request_duration_seconds}). */
    void request(String method, String route, int status, long nanos) {
        Timer.builder("http.server.request.duration")
                .description("Duration of HTTP server requests (OpenTelemetry HTTP conventions)")
                .tags("http.request.method", method, GenAi.HTTP_ROUTE, route, "status_class", GenAi.statusClass(status),
                        "http.response.status_code", GenAi.statusCode(status))
                .serviceLevelObjectives(DURATION_BUCKETS)
                .register(registry).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** One call to a model: duration, time to first token, tokens by class and cost. */
    void call(String route, String protocol, CallFacts f) {
        CallKey key = new CallKey(route, protocol, GenAi.provider(f.vendor()), label(f.requestedModel()),
                label(f.answeredModel()), GenAi.statusClass(f.status()));
        CallMeters m = callMeters.get(key);
        if (m == null) m = callMeters.computeIfAbsent(key, this::register);
        m.duration().record(f.latencyMs(), TimeUnit.MILLISECONDS);
        if (f.ttftMs() != null) m.ttft().record(f.ttftMs(), TimeUnit.MILLISECONDS);
        Usage u = f.usage();
        if (u != null && u.totalTokens() > 0) {
            m.usageInput().record(u.totalInputTokens());
            m.usageOutput().record(u.outputTokens());
            increment(m.input(), u.inputTokens());
            increment(m.cacheRead(), u.cacheReadTokens());
            increment(m.cacheWrite(), u.cacheWriteTokens());
            increment(m.output(), u.outputTokens());
            increment(m.reasoning(), u.reasoningTokens());
        }
        if (f.costUsd() > 0) m.cost().increment(f.costUsd());
    }

    /**
     * One call's labels. Its meters are registered once and kept: building ten meters' tags and looking them up in
     * the registry on every call cost the event loop about 5 % of a call's CPU (JFR, bench/tracing-overhead.sh).
     * The labels are bounded (see the class comment), so the map is too.
     */
    private record CallKey(String route, String protocol, String provider, String requested, String answered,
                           String statusClass) {
    }

    private record CallMeters(Timer duration, Timer ttft, DistributionSummary usageInput, DistributionSummary usageOutput,
                              Counter input, Counter cacheRead, Counter cacheWrite, Counter output, Counter reasoning,
                              Counter cost) {
    }

    private CallMeters register(CallKey k) {
        Tags base = Tags.of(GenAi.OPERATION, GenAi.operation(k.route()), GenAi.PROVIDER, k.provider(),
                GenAi.REQUEST_MODEL, k.requested(), GenAi.RESPONSE_MODEL, k.answered());
        Timer duration = Timer.builder("gen_ai.server.request.duration")
                .description("Duration of a call, from its arrival to its last byte (GenAI conventions)")
                .tags(base).tags(GenAi.HTTP_ROUTE, k.route(), "protocol", k.protocol(), "status_class", k.statusClass())
                .serviceLevelObjectives(DURATION_BUCKETS)
                .register(registry);
        Timer ttft = Timer.builder("gen_ai.server.time_to_first_token")
                .description("Time from a call's arrival to its first byte to the caller (GenAI conventions)")
                .tags(base).tags("protocol", k.protocol())
                .serviceLevelObjectives(TTFT_BUCKETS)
                .register(registry);
        Counter cost = Counter.builder("gateway.cost").baseUnit("usd").description("What calls cost at the catalogue's prices")
                .tags(base).register(registry);
        return new CallMeters(duration, ttft, tokenUsage(base, "input"), tokenUsage(base, "output"), tokens(base, "input"),
                tokens(base, "cache_read"), tokens(base, "cache_write"), tokens(base, "output"), tokens(base, "reasoning"), cost);
    }

    private static void increment(Counter c, long n) {
        if (n > 0) c.increment(n);
    }

    /** gen-ai-metrics' {@code gen_ai.client.token.usage}: the tokens of one call, input (all of it) and output. */
    private DistributionSummary tokenUsage(Tags base, String type) {
        return DistributionSummary.builder("gen_ai.client.token.usage")
                .description("Tokens used per call, by gen_ai.token.type (GenAI conventions: input includes cached input)")
                .tags(base).tag(GenAi.TOKEN_TYPE, type)
                .serviceLevelObjectives(TOKEN_BUCKETS)
                .register(registry);
    }

    /** Tokens by class, the classes apart: input is uncached input, reasoning is part of output. */
    private Counter tokens(Tags base, String tokenClass) {
        return Counter.builder("gateway.tokens").baseUnit(null)
                .description("Tokens by class: input (uncached), cache_read, cache_write, output, reasoning (part of output)")
                .tags(base).tag("token_class", tokenClass).register(registry);
    }

    /** An attempt that failed and was followed by another: {@code kind} retry (same model) or fallback (next model). */
    void retried(String kind, String vendor, String model, String reason) {
        Counter.builder(kind.equals("fallback") ? "gateway.fallbacks" : "gateway.retries")
                .description("Attempts followed by a " + kind + ", by the failure's reason")
                .tags(GenAi.PROVIDER, GenAi.provider(vendor), GenAi.REQUEST_MODEL, label(model), "reason", reason)
                .register(registry).increment();
    }

    /** A call refused at admission (rate limit, budget, concurrency, model not allowed…), by its error code. */
    void refused(String reason) {
        Counter.builder("gateway.admission.refusals")
                .description("Calls refused at admission, by reason (rate_limit_exceeded, insufficient_quota…)")
                .tag("reason", reason).register(registry).increment();
    }

    /** A gauge read at each scrape, registered once per name and labels (circuit breakers, pools, event loops). */
    public <T> void gauge(String name, String description, Map<String, String> labels, T source, ToDoubleFunction<T> value) {
        String id = name + labels;
        if (!gauged.add(id)) return;
        Gauge.Builder<T> b = Gauge.builder(name, source, value).description(description).strongReference(true);
        labels.forEach(b::tag);
        b.register(registry);
    }

    /** The event loop's lateness, measured by a periodic timer ({@link EventLoopLag}). */
    void loopLag(String loop, long lagNanos) {
        Timer.builder("gateway.event_loop.lag")
                .description("How late a 1-second timer fired on each event loop: a blocked or saturated loop shows here")
                .tag("loop", loop)
                .serviceLevelObjectives(seconds(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5))
                .register(registry).record(lagNanos, TimeUnit.NANOSECONDS);
    }

    private static String label(String model) {
        return model == null ? "none" : model;
    }

    private static Duration[] seconds(double... s) {
        Duration[] out = new Duration[s.length];
        for (int i = 0; i < s.length; i++) out[i] = Duration.ofNanos((long) (s[i] * 1e9));
        return out;
    }

    @Override
    public synchronized void close() {
        if (gc != null) gc.close();
        registry.close();
    }
}
