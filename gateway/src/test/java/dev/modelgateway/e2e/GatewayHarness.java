package dev.modelgateway.e2e;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.ConfigValues;
import dev.modelgateway.config.Cooldown;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.config.MediaPolicy;
import dev.modelgateway.config.ServerLimits;
import dev.modelgateway.config.ServerTls;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.config.VendorPool;
import dev.modelgateway.observability.ObservabilityConfig;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.server.Gateway;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.time.Ticker;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/** A real gateway (two event loops) in front of a real vendor simulator, both on loopback. */
public final class GatewayHarness implements AutoCloseable {
    public static final String KEY = "pk-test-master-key";

    public final Vertx vertx;
    public final VendorSimulator sim;
    public final Gateway gateway;
    /** JDBC URL of the accounts store (a temporary SQLite file unless given), for tests that read the ledger. */
    public final String databaseUrl;
    /** The simulator is on loopback, so the harness lets the gateway fetch media URLs there. */
    private static final MediaPolicy LOOPBACK_MEDIA = MediaPolicy.DEFAULT.withAllowPrivate(true);
    /** The SDK clients handed out, closed before the gateway stops. */
    private final List<Runnable> clients = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final HttpClient http1 = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();

    private GatewayHarness(Vertx vertx, VendorSimulator sim, Gateway gateway, String databaseUrl) {
        this.vertx = vertx;
        this.sim = sim;
        this.gateway = gateway;
        this.databaseUrl = databaseUrl;
    }

    /** A gateway with the defaults: its own simulator, every vendor keyed, a temporary SQLite file, no Redis. */
    public static GatewayHarness start() {
        return builder().start();
    }

    /** A gateway set up otherwise than {@link #start()}: only what a test sets differs from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** What a harness's gateway runs with; each setting defaults to what {@link #start()} uses. */
    public static final class Builder {
        private final Set<Vendor> missingKeys = EnumSet.noneOf(Vendor.class);
        private final Map<Vendor, String> baseUrls = new EnumMap<>(Vendor.class);
        private final Map<Vendor, VendorPool> pools = new EnumMap<>(Vendor.class);
        private int eventLoops = 2;
        /** 0: any free port. */
        private int port;
        /** Null: the configuration's {@code routing.cooldown}. */
        private CircuitBreaker.Thresholds breaker;
        private MediaPolicy media = LOOPBACK_MEDIA;
        private String databaseUrl;
        private String redisUrl;
        private VendorSimulator sim;
        private ServerLimits limits = ServerLimits.DEFAULT;
        private int defaultMaxConcurrent = GatewayConfig.DEFAULT_MAX_CONCURRENT;
        private boolean dropRefusedHostedTools;
        private ServerTls tls;
        private ObservabilityConfig observability = ObservabilityConfig.DEFAULT;
        private Path configFile;
        private OperationTimeouts timeouts = OperationTimeouts.DEFAULT;
        private Ticker ticker = Ticker.SYSTEM;
        private InstantSource accountsClock = InstantSource.system();
        private boolean alertsAllowPrivate;
        /** Null: the setting's default (a value of the harness's own would show in a reload's {@code restart_needed}). */
        private Integer drainSeconds;
        /** Declared settings given through their environment variables. */
        private final Map<String, String> settingsEnv = new HashMap<>();

        private Builder() {
        }

        /** The gateway's port, for a test whose configuration names it ({@code server.public_url}); 0 (the default): any free port. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** {@code server.drain_seconds}: how long {@code stop()} lets the calls in flight go on (its default unless set). */
        public Builder drainSeconds(int seconds) {
            this.drainSeconds = seconds;
            return this;
        }

        /** {@code accounts.alerts_allow_private} (off by default, as in production): on, a webhook receiver on loopback is reached. */
        public Builder alertsAllowPrivate(boolean allow) {
            this.alertsAllowPrivate = allow;
            return this;
        }

        /** Metrics, tracing and access-log settings (the defaults: metrics on the main port, no tracing). */
        public Builder observability(ObservabilityConfig config) {
            this.observability = config;
            return this;
        }

        /**
         * The operator's configuration file: its vendors, providers, deployments, catalogue entries and cooldowns are
         * used (and reloaded from it), the harness's own settings for the rest. It must name the simulator's URLs
         * itself (see {@link #simVendors}).
         */
        public Builder configFile(Path file) {
            this.configFile = file;
            return this;
        }

        /** The operator setting {@code responses.drop_refused_hosted_tools} (off by default). */
        public Builder dropRefusedHostedTools(boolean drop) {
            this.dropRefusedHostedTools = drop;
            return this;
        }

        /** Leaves a vendor without an API key, to test the "not configured" error. */
        public Builder missingKey(Vendor vendor) {
            missingKeys.add(vendor);
            return this;
        }

        /** Another base URL for a vendor than the simulator's, e.g. a closed port to test transport failures. */
        public Builder baseUrl(Vendor vendor, String url) {
            baseUrls.put(vendor, url);
            return this;
        }

        /** A vendor's connection pool per event loop (tests of its saturation use a small one). */
        public Builder pool(Vendor vendor, VendorPool pool) {
            pools.put(vendor, pool);
            return this;
        }

        /** Gateway verticles, one per event loop, each with its own vendor pools (2 unless set). */
        public Builder eventLoops(int n) {
            this.eventLoops = n;
            return this;
        }

        /** The vendor-call deadlines of the endpoints without platform_options (section {@code timeouts}). */
        public Builder timeouts(OperationTimeouts t) {
            this.timeouts = t;
            return this;
        }

        /**
         * Circuit-breaker thresholds (tests of the breaker use small ones), as the configuration's {@code routing.cooldown}
         * ({@code shared_failures} at most the default's); a reload of the file applies the file's.
         */
        public Builder breaker(CircuitBreaker.Thresholds thresholds) {
            this.breaker = thresholds;
            return this;
        }

        /**
         * The accounts' clock (budget periods, expiries, a rotation's grace) and the Redis rate limiter's: with a test's,
         * the buckets refill and the graces end only when the test moves it.
         */
        public Builder accountsClock(InstantSource clock) {
            this.accountsClock = clock;
            return this;
        }

        /** The clock the circuit breakers read: a {@code TestClock} lets a test end a cooldown without waiting for it. */
        public Builder clock(Ticker clock) {
            this.ticker = clock;
            return this;
        }

        /** How media URLs are fetched (the default allows loopback, where the simulator is). */
        public Builder media(MediaPolicy policy) {
            this.media = policy;
            return this;
        }

        /** The accounts database, e.g. a second gateway on the first one's file (restarts); a fresh SQLite file if unset. */
        public Builder database(String url) {
            this.databaseUrl = url;
            return this;
        }

        /** The HTTP server's timeouts, connection caps and body budget (tests of them use small ones). */
        public Builder limits(ServerLimits serverLimits) {
            this.limits = serverLimits;
            return this;
        }

        /** Calls in flight at once for a key that sets no {@code max_concurrent}. */
        public Builder defaultMaxConcurrent(int n) {
            this.defaultMaxConcurrent = n;
            return this;
        }

        /** Serve TLS with this certificate and key (cleartext if unset). */
        public Builder tls(ServerTls serverTls) {
            this.tls = serverTls;
            return this;
        }

        /** A declared setting by its environment variable ({@code GATEWAY_ACCOUNTS_REDIS_REPLICA_ACKS}…). */
        public Builder setting(String env, String value) {
            settingsEnv.put(env, value);
            return this;
        }

        /** The Redis URL for shared counters; none (in-process counters) if unset. */
        public Builder redis(String url) {
            this.redisUrl = url;
            return this;
        }

        /**
         * Another gateway instance, on its own Vert.x, in front of an existing simulator (another harness's)
         * instead of a simulator of its own: close it before the harness that owns the simulator.
         */
        public Builder simulator(VendorSimulator existing) {
            this.sim = existing;
            return this;
        }

        /** The declared settings the harness sets through their environment variables; the rest at their defaults. */
        private ConfigValues settings() {
            Map<String, String> env = new HashMap<>(settingsEnv);
            env.put("GATEWAY_ACCOUNTS_ALERTS_ALLOW_PRIVATE", String.valueOf(alertsAllowPrivate));
            if (drainSeconds != null) env.put("GATEWAY_SERVER_DRAIN_SECONDS", drainSeconds.toString());
            try {
                return new ConfigLoader(env::get).load(null).settings();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public GatewayHarness start() {
            Vertx vertx = Vertx.vertx();
            VendorSimulator s = sim != null ? sim : VendorSimulator.start(vertx, 0).await();
            String db = databaseUrl != null ? databaseUrl : tempDatabaseUrl();
            SimKeys keys = SimKeys.defaults();
            String base = s.baseUrl();
            Map<Vendor, VendorEndpoint> vendors = new EnumMap<>(Vendor.class);
            vendors.put(Vendor.ANTHROPIC, new VendorEndpoint(Vendor.ANTHROPIC, base + "/anthropic", keys.anthropic()));
            vendors.put(Vendor.OPENAI, new VendorEndpoint(Vendor.OPENAI, base + "/openai/v1", keys.openai()));
            vendors.put(Vendor.GEMINI, new VendorEndpoint(Vendor.GEMINI, base + "/gemini", keys.gemini()));
            vendors.put(Vendor.DASHSCOPE, new VendorEndpoint(Vendor.DASHSCOPE, base + "/dashscope/compatible-mode/v1", keys.dashscope()));
            baseUrls.forEach((v, url) -> vendors.put(v, new VendorEndpoint(v, url, vendors.get(v).apiKey())));
            for (Vendor v : missingKeys) vendors.put(v, new VendorEndpoint(v, vendors.get(v).baseUrl(), null));
            pools.forEach((v, pool) -> vendors.put(v, new VendorEndpoint(v, vendors.get(v).baseUrl(), vendors.get(v).apiKey(), pool)));
            GatewayConfig config = new GatewayConfig("127.0.0.1", port, KEY, vendors, Map.of(), db, redisUrl, media, limits,
                    tls, defaultMaxConcurrent, dropRefusedHostedTools, null, timeouts, settings());
            if (configFile != null) {
                try {
                    config = config.withReloadable(ConfigLoader.fromSystemEnv().load(configFile));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            if (breaker != null) {
                int failures = breaker.consecutiveFailures();
                config = config.withRouting(config.routing().withCooldown(new Cooldown(failures,
                        Math.min(failures, Cooldown.DEFAULT.sharedFailures()), breaker.openFor(), breaker.maxOpenFor())));
            }
            Gateway gateway = Gateway.start(vertx, config, eventLoops, observability, ticker, accountsClock).await();
            return new GatewayHarness(vertx, s, gateway, db);
        }
    }

    /** The four vendors on a simulator, as a configuration file's {@code vendors:} section. */
    public static String simVendors(VendorSimulator sim) {
        SimKeys keys = SimKeys.defaults();
        String base = sim.baseUrl();
        return "vendors:\n"
                + "  anthropic: {base_url: " + base + "/anthropic, api_key: " + keys.anthropic() + "}\n"
                + "  openai: {base_url: " + base + "/openai/v1, api_key: " + keys.openai() + "}\n"
                + "  gemini: {base_url: " + base + "/gemini, api_key: " + keys.gemini() + "}\n"
                + "  dashscope: {base_url: " + base + "/dashscope/compatible-mode/v1, api_key: " + keys.dashscope() + "}\n";
    }

    /** A fresh temporary SQLite database URL. */
    public static String tempDatabaseUrl() {
        return "jdbc:sqlite:" + tempDatabase();
    }

    /**
     * The ledger rows written for a public model, waiting up to five seconds for the asynchronous ledger
     * writer to have stored at least {@code atLeast} of them.
     */
    public List<Map<String, Object>> ledger(String publicModel, int atLeast) {
        return LedgerRows.awaitByModel(databaseUrl, publicModel, atLeast);
    }

    /**
     * Calls holding or waiting for a vendor connection, all providers and event loops together (the
     * {@code gateway_upstream_pool_calls} gauges): 0 once a vendor's answer has been read.
     */
    public long upstreamCalls() {
        return get("/metrics").body().lines().filter(l -> l.startsWith("gateway_upstream_pool_calls{"))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** Waits until every usage row of the calls answered so far is in the ledger (each is queued before its answer ends). */
    public void awaitLedgerWritten() {
        Eventually.until("every usage row written", () -> gateway.accounts().ledgerQueued() == 0);
    }

    private static String tempDatabase() {
        try {
            Path dir = Files.createTempDirectory("gateway-test");
            dir.toFile().deleteOnExit();
            return dir.resolve("gateway.db").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Base URL for the OpenAI SDK ({@code {host}/api/v1}). */
    public String openAiBaseUrl() {
        return "http://127.0.0.1:" + gateway.port() + "/api/v1";
    }

    /** Base URL for the Anthropic SDK, which appends {@code /v1/messages} itself. */
    public String anthropicBaseUrl() {
        return "http://127.0.0.1:" + gateway.port() + "/api";
    }

    /** openai-java on this gateway with the master key, its own retries off; closed with the harness. */
    public OpenAIClient openai() {
        return openai(KEY);
    }

    /** openai-java with another platform key, its own retries off. */
    public OpenAIClient openai(String key) {
        return openai(key, 0);
    }

    /** openai-java with the SDK's own retries on, for tests of what the SDK retries. */
    public OpenAIClient openai(String key, int maxRetries) {
        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(openAiBaseUrl()).apiKey(key).maxRetries(maxRetries).build();
        clients.add(client::close);
        return client;
    }

    /** anthropic-java with the master key as a bearer token ({@code authToken}), its own retries off; closed with the harness. */
    public AnthropicClient anthropic() {
        return anthropic(KEY);
    }

    /** anthropic-java with another platform key as a bearer token, its own retries off. */
    public AnthropicClient anthropic(String key) {
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(anthropicBaseUrl()).authToken(key).maxRetries(0).build();
        clients.add(client::close);
        return client;
    }

    public HttpResponse<String> post(String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                .timeout(Duration.ofSeconds(20))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return send(b.build());
    }

    public HttpResponse<String> postAuthed(String path, String body, String... headers) {
        return post(path, body, withMasterKey(headers));
    }

    public HttpResponse<String> get(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                .timeout(Duration.ofSeconds(20)).GET();
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return send(b.build());
    }

    public HttpResponse<String> getAuthed(String path, String... headers) {
        return get(path, withMasterKey(headers));
    }

    /** A multipart/form-data POST with the master key; {@code form} is the encoded body, parts split by {@code boundary}. */
    public HttpResponse<String> postMultipartAuthed(String path, String boundary, byte[] form) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                .timeout(Duration.ofSeconds(20))
                .header("authorization", "Bearer " + KEY)
                .header("content-type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(form)).build());
    }

    private static String[] withMasterKey(String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "authorization";
        all[1] = "Bearer " + KEY;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return all;
    }

    /**
     * A POST over HTTP/1.1, as the official SDKs (OkHttp) and curl send it; {@link #post} lets the JDK
     * client upgrade to HTTP/2 (h2c), which Vert.x accepts.
     */
    public HttpResponse<String> postHttp1(String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                .timeout(Duration.ofSeconds(20))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        try {
            return http1.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Any method with an optional JSON body, e.g. the admin API. */
    public HttpResponse<String> send(String method, String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) b.header("content-type", "application/json");
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return send(b.build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        clients.forEach(Runnable::run);
        gateway.stop().await();
        vertx.close().await();
    }
}
