package dev.modelgateway.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.accounts.ApiKey;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.MediaPolicy;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorAnswerLimits;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Caller;
import dev.modelgateway.http.ErrorShape;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.routing.PlatformOptions;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.upstream.MediaFetcher;
import dev.modelgateway.upstream.Relay;
import dev.modelgateway.upstream.VendorClients;
import dev.modelgateway.wire.CallerProtocol;
import dev.modelgateway.wire.InboundCodec;
import dev.modelgateway.wire.StreamEncoder;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CallRunner} without a router: real catalogue, accounts (SQLite in a temporary directory), relay and
 * vendor simulator, and a local server whose handler opens an {@link Exchange} on its response and runs one
 * {@link Call} that the test builds (chat completions, the way the chat endpoint builds it). The caller is a
 * plain HTTP client; the ledger is read back from the database.
 *
 * <p>Each test puts its own {@code id=} into the simulator directive, so the simulator's {@code times}
 * counters and request log are its own, and calls with its own key, so its ledger rows are its own. Vendor D
 * (DashScope) is deliberately left without a credential, for the "not configured" fallback.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CallRunnerTest {
    @TempDir
    static Path dir;

    private static Vertx vertx;
    private static VendorSimulator sim;
    private static Catalogue catalogue;
    private static GatewayConfig config;
    private static Accounts accounts;
    private static MediaFetcher media;
    private static String databaseUrl;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private VendorClients clients;
    private HttpServer front;
    private ApiKey key;
    private String marker;
    /** Builds the call of the request the front server just received; set by each test. */
    private volatile Function<Exchange, Call> callOf;
    private volatile String traceId;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        SimKeys keys = SimKeys.defaults();
        String s = sim.baseUrl();
        Map<Vendor, VendorEndpoint> vendors = new EnumMap<>(Vendor.class);
        vendors.put(Vendor.ANTHROPIC, new VendorEndpoint(Vendor.ANTHROPIC, s + "/anthropic", keys.anthropic()));
        vendors.put(Vendor.OPENAI, new VendorEndpoint(Vendor.OPENAI, s + "/openai/v1", keys.openai()));
        vendors.put(Vendor.GEMINI, new VendorEndpoint(Vendor.GEMINI, s + "/gemini", keys.gemini()));
        vendors.put(Vendor.DASHSCOPE, new VendorEndpoint(Vendor.DASHSCOPE, s + "/dashscope/compatible-mode/v1", null));
        databaseUrl = "jdbc:sqlite:" + dir.resolve("gateway.db");
        config = new GatewayConfig("127.0.0.1", 0, null, vendors, Map.of(), databaseUrl, null, MediaPolicy.DEFAULT);
        catalogue = Catalogue.loadDefault(config.upstreamOverrides());
        accounts = Accounts.open(vertx, new AccountsConfig(databaseUrl, null, null), catalogue).await();
        media = new MediaFetcher(vertx, config.media());
    }

    @AfterAll
    static void stop() {
        if (media != null) media.close().await();
        if (accounts != null) accounts.close().await();
        if (sim != null) sim.close().await();
        if (vertx != null) vertx.close().await();
    }

    @BeforeEach
    void startFront() {
        marker = "id=" + UUID.randomUUID().toString().substring(0, 8);
        key = key(List.of());
        // A relay of its own per test: a breaker opened by one test's failures must not refuse the next test.
        clients = new VendorClients(vertx);
        Relay relay = new Relay(clients, new CircuitBreakers(CircuitBreaker.Thresholds.DEFAULT), VendorAnswerLimits.DEFAULT);
        CallRunner runner = new CallRunner(new CallServices(catalogue, config, relay, new Metering(accounts), media));
        front = vertx.createHttpServer().requestHandler(req -> {
            Exchange ex = Exchange.open(vertx, req.response(), ErrorShape.OPENAI);
            ex.caller(new Caller(key));
            traceId = ex.traceId();
            try {
                runner.run(callOf.apply(ex));
            } catch (GatewayException e) {
                ex.fail(e);
            }
        }).listen(0, "127.0.0.1").await();
    }

    @AfterEach
    void stopFront() {
        front.close().await();
        clients.close().await();
    }

    // ---- the steps: admit, attempt, relay, record

    @Test
    void successIsRelayedWithItsHeadersAndWritesOneLedgerRow() {
        callOf = chat("platform/vendorB-5.5", false, "", PlatformOptions.DEFAULTS);

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode answer = Json.parseOrNull(r.body());
        assertThat(answer.path("object").asText()).isEqualTo("chat.completion");
        assertThat(answer.at("/choices/0/message/content").asText()).startsWith("Hello from vendorB-5.5.");
        assertThat(header(r, CallRunner.MODEL_HEADER)).isEqualTo("platform/vendorB-5.5");
        assertThat(header(r, CallRunner.ATTEMPTS_HEADER)).isEqualTo("1");
        assertThat(header(r, CallRunner.FALLBACK_HEADER)).isNull();
        assertThat(upstream()).hasSize(1);
        Row row = onlyLedgerRow();
        assertThat(row.traceId()).isEqualTo(traceId);
        assertThat(row.publicModel()).isEqualTo("platform/vendorB-5.5");
        assertThat(row.answeredModel()).isEqualTo("platform/vendorB-5.5");
        assertThat(row.vendor()).isEqualTo("openai");
        assertThat(row.attempts()).isEqualTo(1);
        assertThat(row.status()).isEqualTo(200);
        assertThat(row.inputTokens()).isEqualTo(answer.at("/usage/prompt_tokens").asLong()).isPositive();
        assertThat(row.outputTokens()).isEqualTo(answer.at("/usage/completion_tokens").asLong()).isPositive();
        assertThat(row.ttftMs()).isNotNull();
        assertThat(row.costE10()).isPositive();
    }

    @Test
    void streamedSuccessRecordsTheUsageTheTapReadFromAChunkTheCallerDidNotAskFor() {
        callOf = chat("platform/vendorB-5.5", true, "", PlatformOptions.DEFAULTS);

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(header(r, "content-type")).startsWith("text/event-stream");
        assertThat(r.body()).contains("\"content\":\"Hello\"").endsWith("data: [DONE]\n\n").doesNotContain("\"usage\":{");
        // The gateway asked the vendor for the usage chunk on the caller's behalf.
        assertThat(Json.parseOrNull(upstream().getFirst().body()).at("/stream_options/include_usage").asBoolean()).isTrue();
        Row row = onlyLedgerRow();
        assertThat(row.status()).isEqualTo(200);
        assertThat(row.attempts()).isEqualTo(1);
        assertThat(row.inputTokens()).isPositive();
        assertThat(row.outputTokens()).isPositive();
        assertThat(row.ttftMs()).isNotNull();
    }

    /**
     * A call's concurrency slot is free by the time its caller, holding the whole answer, asks again: a key allowed
     * one call at a time calls ten times in a row, JSON and SSE, and every call is served and has its row. (A
     * version that settled the admission after the answer's last bytes failed a two-instance budget test instead:
     * see docs/performance.md, "Per request".)
     */
    @Test
    void aKeyAllowedOneCallAtATimeIsServedCallAfterCall() {
        key = new ApiKey("key-" + UUID.randomUUID().toString().substring(0, 8), "call-runner-test", List.of(),
                null, null, List.of(), null, null, 1L, false, false);
        for (int i = 0; i < 10; i++) {
            callOf = chat("platform/vendorB-5.5", i % 2 == 1, "", PlatformOptions.DEFAULTS);
            HttpResponse<String> r = get();
            assertThat(r.statusCode()).as("call %d: %s", i, r.body()).isEqualTo(200);
        }
        assertThat(ledgerRows(10)).hasSize(10).allSatisfy(row -> {
            assertThat(row.status()).isEqualTo(200);
            assertThat(row.outputTokens()).isPositive();
        });
    }

    @Test
    void refusedAdmissionCallsNoVendorAndIsRecorded() {
        key = key(List.of("platform/vendorA-*"));
        callOf = chat("platform/vendorB-5.5", false, "", PlatformOptions.DEFAULTS);

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(Json.parseOrNull(r.body()).at("/error/code").asText()).isEqualTo("model_not_allowed");
        assertThat(header(r, CallRunner.ATTEMPTS_HEADER)).isNull();
        assertThat(upstream()).isEmpty();
        Row row = onlyLedgerRow();
        assertThat(row.status()).isEqualTo(403);
        assertThat(row.attempts()).isZero();
        assertThat(row.answeredModel()).isNull();
    }

    // ---- retries and fallbacks

    @Test
    void rateLimitOnceIsRetriedAndTheCallerSeesOne200() {
        callOf = chat("platform/vendorB-5.5", false, "status=429;times=1;", new PlatformOptions(null, 1, List.of()));

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(r.body()).at("/choices/0/message/content").asText()).startsWith("Hello from vendorB-5.5.");
        assertThat(header(r, CallRunner.ATTEMPTS_HEADER)).isEqualTo("2");
        assertThat(header(r, CallRunner.FALLBACK_HEADER)).isNull();
        assertThat(upstream()).hasSize(2);
        Row row = onlyLedgerRow();
        assertThat(row.attempts()).isEqualTo(2);
        assertThat(row.status()).isEqualTo(200);
        assertThat(row.answeredModel()).isEqualTo("platform/vendorB-5.5");
    }

    @Test
    void refusedCredentialMovesToTheFallbackWithoutRetryingThePrimary() {
        callOf = chat("platform/vendorB-5.5", false, "status=401;times=1;",
                new PlatformOptions(null, 1, List.of(model("platform/vendorB-5.4"))));

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(r.body()).path("model").asText()).isEqualTo("vendorB-5.4");
        assertThat(header(r, CallRunner.MODEL_HEADER)).isEqualTo("platform/vendorB-5.4");
        assertThat(header(r, CallRunner.FALLBACK_HEADER)).isEqualTo("1");
        assertThat(header(r, CallRunner.ATTEMPTS_HEADER)).isEqualTo("2");
        assertThat(upstreamModels()).containsExactly("vendorB-5.5", "vendorB-5.4");
        Row row = onlyLedgerRow();
        assertThat(row.publicModel()).isEqualTo("platform/vendorB-5.5");
        assertThat(row.answeredModel()).isEqualTo("platform/vendorB-5.4");
        assertThat(row.attempts()).isEqualTo(2);
        assertThat(row.status()).isEqualTo(200);
    }

    @Test
    void unconfiguredVendorFallsBackToATranslatedModelAnsweringInChatShape() {
        callOf = chat("vendorD-plus-latest", false, "",
                new PlatformOptions(null, 1, List.of(model("platform/vendorA-sonnet-4.5"))));

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode answer = Json.parseOrNull(r.body());
        assertThat(answer.path("object").asText()).isEqualTo("chat.completion");
        assertThat(answer.at("/choices/0/message/content").asText()).startsWith("Hello from vendorA-sonnet-4.5.");
        assertThat(header(r, CallRunner.MODEL_HEADER)).isEqualTo("platform/vendorA-sonnet-4.5");
        assertThat(header(r, CallRunner.ATTEMPTS_HEADER)).isEqualTo("2");
        assertThat(upstream()).extracting(ReceivedRequest::vendor).containsExactly("anthropic");
        Row row = onlyLedgerRow();
        assertThat(row.vendor()).isEqualTo("anthropic");
        assertThat(row.attempts()).isEqualTo(2);
        assertThat(row.inputTokens()).isPositive();
    }

    @Test
    void badRequestIsNeitherRetriedNorFallenBackAndReachesTheCallerAsIs() {
        callOf = chat("platform/vendorB-5.5", false, "status=400;",
                new PlatformOptions(null, 3, List.of(model("platform/vendorB-5.4"))));

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(header(r, CallRunner.ATTEMPTS_HEADER)).isEqualTo("1");
        assertThat(header(r, CallRunner.FALLBACK_HEADER)).isNull();
        assertThat(upstream()).hasSize(1);
        // Byte for byte what the vendor answers to the same request.
        HttpResponse<String> direct = postToSim("/openai/v1/chat/completions", upstream().getFirst().body(),
                "Bearer " + SimKeys.defaults().openai());
        assertThat(direct.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo(direct.body());
        assertThat(Json.parseOrNull(r.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
        Row row = onlyLedgerRow();
        assertThat(row.status()).isEqualTo(400);
        assertThat(row.attempts()).isEqualTo(1);
    }

    @Test
    void whenEveryAttemptFailsTheFinalErrorListsEachAttempt() {
        // max_retries 1: two tries of each model, four attempts in all.
        callOf = chat("platform/vendorB-5.5", false, "status=500;",
                new PlatformOptions(null, 1, List.of(model("platform/vendorB-5.4"))));

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).isEqualTo(502);
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("server_error");
        assertThat(error.path("code").asText()).isEqualTo("upstream_error");
        String reason = "500 (The server had an error while processing your request. Sorry about that!)";
        assertThat(error.path("message").asText()).isEqualTo("The call failed after 4 attempts: "
                + "1. platform/vendorB-5.5 → " + reason + "; "
                + "2. platform/vendorB-5.5 → " + reason + "; "
                + "3. platform/vendorB-5.4 → " + reason + "; "
                + "4. platform/vendorB-5.4 → " + reason);
        assertThat(header(r, CallRunner.ATTEMPTS_HEADER)).isEqualTo("4");
        assertThat(header(r, CallRunner.FALLBACK_HEADER)).isEqualTo("1");
        assertThat(header(r, CallRunner.MODEL_HEADER)).isEqualTo("platform/vendorB-5.4");
        assertThat(upstreamModels()).containsExactly("vendorB-5.5", "vendorB-5.5", "vendorB-5.4", "vendorB-5.4");
        Row row = onlyLedgerRow();
        assertThat(row.status()).isEqualTo(502);
        assertThat(row.attempts()).isEqualTo(4);
        assertThat(row.publicModel()).isEqualTo("platform/vendorB-5.5");
        assertThat(row.answeredModel()).isEqualTo("platform/vendorB-5.4");
        assertThat(row.ttftMs()).isNull();
    }

    /**
     * A bug in the gateway while an attempt starts (here a codec throwing a plain runtime exception) still
     * answers the caller with a 500 in its shape and writes the ledger row, instead of leaving it hanging.
     */
    @Test
    void aGatewayBugWhileAnAttemptStartsIsA500NotAHang() {
        String json = "{\"model\":\"platform/vendorA-sonnet-4.5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        InboundCodec broken = new InboundCodec() {
            @Override
            public void validate(JsonNode body) {
            }

            @Override
            public CanonicalRequest decodeRequest(JsonNode body) {
                throw new IllegalStateException("simulated bug");
            }

            @Override
            public ObjectNode encodeResponse(CanonicalResponse response, String publicModel) {
                throw new UnsupportedOperationException();
            }

            @Override
            public StreamEncoder newStreamEncoder(String publicModel, CanonicalRequest request) {
                throw new UnsupportedOperationException();
            }

            @Override
            public ObjectNode encodeError(GatewayException e) {
                return CallerProtocol.CHAT.codec().encodeError(e);
            }
        };
        callOf = ex -> {
            ModelEntry entry = catalogue.resolve("platform/vendorA-sonnet-4.5");
            ex.model(entry.id());
            return new Call(ex, json.length(), CallerProtocol.CHAT, broken, Json.parseObject(Buffer.buffer(json)), false,
                    PlatformOptions.DEFAULTS, entry, 0);
        };

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).as(r.body()).isIn(500, 502);
        assertThat(Json.parseOrNull(r.body()).path("error").path("message").asText()).doesNotContain("simulated bug");
        assertThat(onlyLedgerRow().status()).isEqualTo(r.statusCode());
    }

    /**
     * docs/platform-options.md: a refused vendor credential (401/403) moves to the next model at once, as on
     * the native path (refusedCredentialMovesToTheFallbackWithoutRetryingThePrimary). On the translated path
     * the vendor's 401 becomes a GatewayException.CredentialRefused, whose type tells AttemptFailure.of that the
     * credential was refused (before, it read as a plain 502 and was retried on the same deployment).
     */
    @Test
    void refusedCredentialOnTheTranslatedPathAlsoMovesToTheFallbackAtOnce() {
        callOf = chat("platform/vendorA-sonnet-4.5", false, "status=401;times=1;",
                new PlatformOptions(null, 1, List.of(model("platform/vendorB-5.4"))));

        HttpResponse<String> r = get();

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(upstream()).extracting(ReceivedRequest::vendor).containsExactly("anthropic", "openai");
        assertThat(header(r, CallRunner.MODEL_HEADER)).isEqualTo("platform/vendorB-5.4");
        assertThat(header(r, CallRunner.FALLBACK_HEADER)).isEqualTo("1");
        assertThat(header(r, CallRunner.ATTEMPTS_HEADER)).isEqualTo("2");
    }

    @Test
    void callerLeavingDuringTheBackoffEndsThePlanWithA499() throws Exception {
        // The vendor asks for a 400 ms pause; the caller hangs up during it.
        callOf = chat("platform/vendorB-5.5", false, "status=429;retry_after_ms=400;", new PlatformOptions(null, 1, List.of()));

        try (Socket socket = new Socket("127.0.0.1", front.actualPort())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            sim.awaitReceived(list -> list.stream().anyMatch(q -> q.body().contains(marker)), 5_000).await();
            Eventually.until("the 429 read: the call is in its backoff",
                    () -> clients.callsByProvider().values().stream().allMatch(calls -> calls == 0));
        }

        Row row = onlyLedgerRow();
        assertThat(row.status()).isEqualTo(499);
        assertThat(upstream()).hasSize(1);
        assertThat(row.attempts()).as("the retry was scheduled, never sent").isEqualTo(1);
    }

    // ---- helpers

    private static ApiKey key(List<String> allowedModels) {
        return new ApiKey("key-" + UUID.randomUUID().toString().substring(0, 8), "call-runner-test", allowedModels,
                null, null, List.of(), null, null, null, false, false);
    }

    private static ModelEntry model(String id) {
        return catalogue.find(id);
    }

    /** A chat completions call to {@code model} whose user message carries the test's simulator directive. */
    private Function<Exchange, Call> chat(String model, boolean stream, String directive, PlatformOptions options) {
        String json = "{\"model\":\"" + model + "\",\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"[[sim:" + directive + marker + "]] hi\"}]}";
        return ex -> {
            ObjectNode body = Json.parseObject(Buffer.buffer(json));
            ModelEntry entry = catalogue.resolve(model);
            ex.model(entry.id());
            return new Call(ex, json.length(), CallerProtocol.CHAT, CallerProtocol.CHAT.codec(), body, stream, options,
                    entry, 0);
        };
    }

    private HttpResponse<String> get() {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.actualPort() + "/"))
                .timeout(Duration.ofSeconds(10)).GET().build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static HttpResponse<String> postToSim(String path, String body, String authorization) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(sim.baseUrl() + path))
                .timeout(Duration.ofSeconds(10)).header("content-type", "application/json")
                .header("authorization", authorization).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    /** The vendor requests this test caused, in arrival order. */
    private List<ReceivedRequest> upstream() {
        return sim.received().stream().filter(q -> q.body().contains(marker)).toList();
    }

    private List<String> upstreamModels() {
        return upstream().stream().map(q -> Json.parseOrNull(q.body()).path("model").asText()).toList();
    }

    /** One {@code usage_ledger} row. */
    record Row(String traceId, String publicModel, String answeredModel, String vendor, long inputTokens,
               long outputTokens, int attempts, int status, Long ttftMs, long costE10) {
    }

    /**
     * The test key's single ledger row: waits for the asynchronous writer to store one, then for every row submitted
     * so far to be written, so that a second row would be there too (each is submitted before its answer ends).
     */
    private Row onlyLedgerRow() {
        ledgerRows(1);
        Eventually.until("every usage row written", () -> accounts.ledgerQueued() == 0);
        List<Row> rows = ledgerRows();
        assertThat(rows).as("ledger rows of key %s", key.id()).hasSize(1);
        return rows.getFirst();
    }

    /** The test key's ledger rows once there are at least {@code n} (the writer is asynchronous). */
    private List<Row> ledgerRows(int n) {
        return Eventually.value(n + " ledger rows", this::ledgerRows, rows -> rows.size() >= n);
    }

    private List<Row> ledgerRows() {
        try (Connection c = DriverManager.getConnection(databaseUrl);
             PreparedStatement ps = c.prepareStatement("SELECT * FROM usage_ledger WHERE key_id = ? ORDER BY at_ms, id")) {
            ps.setString(1, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                List<Row> rows = new ArrayList<>();
                while (rs.next()) {
                    long ttft = rs.getLong("ttft_ms");
                    Long ttftMs = rs.wasNull() ? null : ttft;
                    rows.add(new Row(rs.getString("trace_id"), rs.getString("public_model"), rs.getString("answered_model"),
                            rs.getString("vendor"), rs.getLong("input_tokens") + rs.getLong("cache_read_tokens"),
                            rs.getLong("output_tokens"), rs.getInt("attempts"), rs.getInt("status"), ttftMs,
                            rs.getLong("cost_usd_e10")));
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
