package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts one simulator per test class and offers raw HTTP helpers (java.net.http) and an SSE parser. */
abstract class SimTestBase {

    record Sse(String event, String data) {
        JsonNode json() {
            return SimTestBase.json(data);
        }
    }

    static Vertx vertx;
    static VendorSimulator sim;
    static HttpClient http;

    @BeforeAll
    static void startSim() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stopSim() throws Exception {
        sim.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void clearLog() {
        sim.clearReceived();
    }

    static HttpResponse<String> post(String path, String body, String... headers) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(sim.baseUrl() + path)).timeout(Duration.ofSeconds(20))
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
            if (headers.length > 0) b.headers(headers);
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static HttpResponse<String> anthropic(String body) {
        return post("/anthropic/v1/messages", body, "x-api-key", "sim-anthropic-key", "anthropic-version", "2023-06-01");
    }

    static HttpResponse<String> openai(String body) {
        return post("/openai/v1/chat/completions", body, "authorization", "Bearer sim-openai-key");
    }

    static HttpResponse<String> dashscope(String body) {
        return post("/dashscope/compatible-mode/v1/chat/completions", body, "authorization", "Bearer sim-dashscope-key");
    }

    static HttpResponse<String> gemini(String model, String method, String body) {
        String q = method.equals("streamGenerateContent") ? "?alt=sse" : "";
        return post("/gemini/v1beta/models/" + model + ":" + method + q, body, "x-goog-api-key", "sim-gemini-key");
    }

    static JsonNode json(String s) {
        try {
            return Json.MAPPER.readTree(s);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + s, e);
        }
    }

    /** Parses an event stream by the WHATWG line rules (LF or CRLF; blank line ends an event). */
    static List<Sse> sse(String body) {
        List<Sse> out = new ArrayList<>();
        String event = null;
        StringBuilder data = null;
        for (String line : body.split("\r\n|\n", -1)) {
            if (line.isEmpty()) {
                if (data != null) out.add(new Sse(event, data.toString()));
                event = null;
                data = null;
            } else if (line.startsWith("event:")) {
                event = line.substring(6).trim();
            } else if (line.startsWith("data:")) {
                String d = line.substring(5);
                if (d.startsWith(" ")) d = d.substring(1);
                data = data == null ? new StringBuilder(d) : data.append('\n').append(d);
            }
        }
        return out;
    }

    static String userMessages(String text) {
        return "[{\"role\":\"user\",\"content\":" + Json.write(Json.F.textNode(text)) + "}]";
    }
}
