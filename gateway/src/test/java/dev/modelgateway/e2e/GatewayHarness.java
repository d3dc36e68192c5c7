package dev.modelgateway.e2e;

import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.server.Gateway;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import io.vertx.core.Vertx;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/** A real gateway (two event loops) in front of a real vendor simulator, both on loopback. */
public final class GatewayHarness implements AutoCloseable {
    public static final String KEY = "pk-test-master-key";

    public final Vertx vertx;
    public final VendorSimulator sim;
    public final Gateway gateway;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private GatewayHarness(Vertx vertx, VendorSimulator sim, Gateway gateway) {
        this.vertx = vertx;
        this.sim = sim;
        this.gateway = gateway;
    }

    public static GatewayHarness start() {
        return start(Map.of());
    }

    /** @param missingKeys vendors left without an API key, to test the "not configured" error */
    public static GatewayHarness start(Map<Vendor, Boolean> missingKeys) {
        return start(missingKeys, CircuitBreaker.Thresholds.DEFAULT);
    }

    public static GatewayHarness start(Map<Vendor, Boolean> missingKeys, CircuitBreaker.Thresholds breaker) {
        Vertx vertx = Vertx.vertx();
        VendorSimulator sim = VendorSimulator.start(vertx, 0).await();
        SimKeys keys = SimKeys.defaults();
        String s = sim.baseUrl();
        Map<Vendor, VendorEndpoint> vendors = new EnumMap<>(Vendor.class);
        vendors.put(Vendor.ANTHROPIC, new VendorEndpoint(Vendor.ANTHROPIC, s + "/anthropic", keys.anthropic()));
        vendors.put(Vendor.OPENAI, new VendorEndpoint(Vendor.OPENAI, s + "/openai/v1", keys.openai()));
        vendors.put(Vendor.GEMINI, new VendorEndpoint(Vendor.GEMINI, s + "/gemini", keys.gemini()));
        vendors.put(Vendor.DASHSCOPE, new VendorEndpoint(Vendor.DASHSCOPE, s + "/dashscope/compatible-mode/v1", keys.dashscope()));
        missingKeys.forEach((v, missing) -> {
            if (missing) vendors.put(v, new VendorEndpoint(v, vendors.get(v).baseUrl(), null));
        });
        GatewayConfig config = new GatewayConfig("127.0.0.1", 0, KEY, vendors, Map.of(), "jdbc:sqlite:" + tempDatabase(), null);
        Gateway gateway = Gateway.start(vertx, config, 2, breaker).await();
        return new GatewayHarness(vertx, sim, gateway);
    }

    private static String tempDatabase() {
        try {
            java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("gateway-test");
            dir.toFile().deleteOnExit();
            return dir.resolve("gateway.db").toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
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

    public HttpResponse<String> post(String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                .timeout(Duration.ofSeconds(20))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return send(b.build());
    }

    public HttpResponse<String> postAuthed(String path, String body, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "authorization";
        all[1] = "Bearer " + KEY;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return post(path, body, all);
    }

    public HttpResponse<String> get(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
                .timeout(Duration.ofSeconds(20)).GET();
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
        gateway.stop().await();
        vertx.close().await();
    }
}
